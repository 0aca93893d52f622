import { MessageCard } from '@/components/feedback/message-card.tsx';
import { ButtonLink } from '@/components/ui/button.tsx';
import { paths } from '@/config/paths.ts';

export function NotFoundRoute() {
  return (
    <MessageCard
      testId="not-found"
      title="Page Not Found"
      action={<ButtonLink to={paths.home}>Go to the home page</ButtonLink>}
    >
      The page you are looking for does not exist or has moved.
    </MessageCard>
  );
}
