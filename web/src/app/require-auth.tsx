import { useEffect } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import { PageLoading } from '@/components/feedback/page-loading.tsx';
import { goToLogin, useUser } from '@/lib/auth.ts';

/** Parent of the signed-in pages: a signed-out visitor goes to sign-in and comes back here afterwards. */
export function RequireAuth() {
  const { isLoading, isAuthenticated } = useUser();
  const location = useLocation();
  const here = location.pathname + location.search;

  useEffect(() => {
    if (!isLoading && !isAuthenticated) goToLogin(here);
  }, [isLoading, isAuthenticated, here]);

  return isAuthenticated ? <Outlet /> : <PageLoading />;
}
