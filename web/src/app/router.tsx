import { createBrowserRouter, RouterProvider, type RouteObject } from 'react-router-dom';
import { PageLoading } from '@/components/feedback/page-loading.tsx';
import { AppLayout } from '@/components/layouts/app-layout.tsx';
import { RequireAuth } from './require-auth.tsx';
import { NotFoundRoute } from './routes/not-found.tsx';

// Each page is its own chunk, loaded when first visited.
const routes: RouteObject[] = [
  {
    element: <AppLayout />,
    hydrateFallbackElement: <PageLoading />,
    children: [
      {
        index: true,
        lazy: () => import('./routes/home.tsx').then((m) => ({ Component: m.HomeRoute })),
      },
      {
        path: 'bets/create',
        lazy: () =>
          import('./routes/create-bet.tsx').then((m) => ({ Component: m.CreateBetRoute })),
      },
      {
        path: 'invite/:code',
        lazy: () => import('./routes/invite.tsx').then((m) => ({ Component: m.InviteRoute })),
      },
      {
        path: 'privacy',
        lazy: () => import('./routes/legal.tsx').then((m) => ({ Component: m.PrivacyRoute })),
      },
      {
        path: 'terms',
        lazy: () => import('./routes/legal.tsx').then((m) => ({ Component: m.TermsRoute })),
      },
      {
        path: 'opt-in-proof',
        lazy: () => import('./routes/legal.tsx').then((m) => ({ Component: m.OptInProofRoute })),
      },
      {
        element: <RequireAuth />,
        children: [
          {
            path: 'friends',
            lazy: () => import('./routes/friends.tsx').then((m) => ({ Component: m.FriendsRoute })),
          },
          {
            path: 'bets/:id',
            lazy: () => import('./routes/bet.tsx').then((m) => ({ Component: m.BetRoute })),
          },
          {
            path: 'audit',
            lazy: () => import('./routes/audit.tsx').then((m) => ({ Component: m.AuditRoute })),
          },
          {
            path: 'audit/bets/:id',
            lazy: () => import('./routes/audit.tsx').then((m) => ({ Component: m.AuditBetRoute })),
          },
          {
            path: 'profile',
            lazy: () => import('./routes/profile.tsx').then((m) => ({ Component: m.ProfileRoute })),
          },
        ],
      },
      { path: '*', element: <NotFoundRoute /> },
    ],
  },
];

const router = createBrowserRouter(routes);

export function AppRouter() {
  return <RouterProvider router={router} />;
}
