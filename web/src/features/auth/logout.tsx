import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button.tsx';
import { paths } from '@/config/paths.ts';

const logoutFormId = 'logout-form';

/**
 * Logging out is a POST, so a link or image elsewhere cannot sign anyone out. The form sits apart
 * and the button names it, so the button can stand inside another form's layout.
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
