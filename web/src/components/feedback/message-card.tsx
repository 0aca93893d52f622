import type { ReactNode } from 'react';
import { Card, CardContent, CardHeader } from '@/components/ui/card.tsx';
import { Icon } from '@/components/ui/icons.tsx';

/** A whole-page message (not found, already used...): the page's h1, a sentence, and a way on. */
export function MessageCard({
  title,
  children,
  action,
  testId,
}: {
  title: string;
  children: ReactNode;
  action: ReactNode;
  testId: string;
}) {
  return (
    <Card className="mx-auto mt-8 w-full max-w-md" data-testid={testId}>
      <CardHeader className="items-center text-center">
        <Icon name="alert" className="size-10 text-slate-500" />
        <h1 className="text-2xl font-semibold text-slate-900">{title}</h1>
      </CardHeader>
      <CardContent className="grid justify-items-center gap-4 text-center">
        <p className="text-sm text-slate-700">{children}</p>
        {action}
      </CardContent>
    </Card>
  );
}
