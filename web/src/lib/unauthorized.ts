import { toast } from '@/components/ui/toast/use-toast.ts';
import { paths } from '@/config/paths.ts';

/** Time the "logged out" toast stays readable before the browser leaves for sign-in. */
export const UNAUTHORIZED_REDIRECT_MS = 500;

let redirecting = false;

/** The one place a 401 from any query or command turns into a toast and a trip to sign-in. */
export function handleUnauthorized(): void {
  if (redirecting) return;
  redirecting = true;
  toast({
    title: 'Unauthorized',
    description: 'You are logged out. Logging in again...',
    variant: 'destructive',
  });
  const here = `${window.location.pathname}${window.location.search}`;
  setTimeout(() => {
    window.location.href = paths.login(here);
  }, UNAUTHORIZED_REDIRECT_MS);
}
