import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button.tsx';
import { paths } from '@/config/paths.ts';

const logoutFormId = 'logout-form';

/**
 * The button posts to the logout address (a GET there logs out too when it comes from this site or
 * the address bar; one that another site sent only asks). The form sits apart and the button names
 * it, so the button can stand inside another form's layout.
 */
export function LogoutForm() {
  return <form id={logoutFormId} method="post" action={paths.logout} hidden />;
}

export function LogoutButton({ children }: { children: ReactNode }) {
  return (
    <Button type="submit" form={logoutFormId} variant="outline" data-testid="logout">
      {children}
    </Button>
  );
}
