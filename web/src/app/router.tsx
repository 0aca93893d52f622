import { createBrowserRouter, RouterProvider, type RouteObject } from 'react-router-dom';
import { AppLayout } from '@/components/layouts/app-layout.tsx';
import { RequireAuth } from './require-auth.tsx';
import { BetRoute } from './routes/bet.tsx';
import { FriendsRoute } from './routes/friends.tsx';
import { HomeRoute } from './routes/home.tsx';
import { NotFoundRoute } from './routes/not-found.tsx';

const routes: RouteObject[] = [
  {
    element: <AppLayout />,
    children: [
      { index: true, element: <HomeRoute /> },
      {
        path: 'friends',
        element: (
          <RequireAuth>
            <FriendsRoute />
          </RequireAuth>
        ),
      },
      {
        path: 'bets/:id',
        element: (
          <RequireAuth>
            <BetRoute />
          </RequireAuth>
        ),
      },
      { path: '*', element: <NotFoundRoute /> },
    ],
  },
];

const router = createBrowserRouter(routes);

export function AppRouter() {
  return <RouterProvider router={router} />;
}
