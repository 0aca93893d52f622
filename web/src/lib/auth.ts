import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SignedInUser } from '@wagers/contracts/api/user';
import { paths } from '@/config/paths.ts';
import { api } from './api-client.ts';

/** GET /api/auth/user: the signed-in user, or null when signed out. */
export function getUser(): Promise<SignedInUser | null> {
  return api.get<SignedInUser | null>('/api/auth/user', { on401: 'null' });
}

export function getUserQueryOptions() {
  // Any failure means signed out, at once: never tried again.
  return queryOptions({ queryKey: ['/api/auth/user'], queryFn: getUser, retry: false });
}

export function useUser() {
  const query = useQuery(getUserQueryOptions());
  const user = query.data ?? null;
  return { user, isLoading: query.isPending, isAuthenticated: user !== null };
}

/** Leaves the SPA for the server's sign-in page, returning to `redirect` afterwards. */
export function goToLogin(redirect?: string): void {
  window.location.href = paths.login(redirect);
}
