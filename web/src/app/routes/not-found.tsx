import { ButtonLink } from '@/components/ui/button.tsx';
import { Card, CardContent, CardHeader } from '@/components/ui/card.tsx';
import { Icon } from '@/components/ui/icons.tsx';
import { paths } from '@/config/paths.ts';

export function NotFoundRoute() {
  return (
    <Card className="mx-auto mt-8 max-w-md" data-testid="not-found">
      <CardHeader className="items-center text-center">
        <Icon name="alert" className="size-10 text-red-700" />
        <h1 className="text-2xl font-semibold text-slate-900">Page Not Found</h1>
      </CardHeader>
      <CardContent className="grid justify-items-center gap-4 text-center">
        <p className="text-sm text-slate-700">The page you are looking for does not exist or has moved.</p>
        <ButtonLink to={paths.home}>Go to the home page</ButtonLink>
      </CardContent>
    </Card>
  );
}
