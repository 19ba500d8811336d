import { Center, Loader } from '@mantine/core'
import { type ComponentType, Suspense } from 'react'
import { Navigate, type RouteObject, useLocation, useRoutes } from 'react-router'
import { ErrorBoundary } from './error-screen'
import { AccountLayout } from './layouts/account-layout'
import { lazyPage } from './lazy-page'

// Declarative routing (BrowserRouter + useRoutes): the data router would add ~16 KB gzip to
// every first load for loaders and actions the client does not use.
const at = (load: () => Promise<{ default: ComponentType }>) => {
  const Page = lazyPage(load)
  return <Page />
}

const MainLayout = lazyPage(() => import('./layouts/main-layout'))

/**
 * The seed's route table (section 2). Matching is case-insensitive (React Router's default);
 * every page and every area layout is its own chunk, loaded on first visit.
 */
const routes: RouteObject[] = [
  {
    path: 'account',
    element: <AccountLayout />,
    children: [
      { path: 'login', element: at(() => import('@/pages/account/login')) },
      { path: 'register', element: at(() => import('@/pages/account/register')) },
      { path: 'recovery', element: at(() => import('@/pages/account/recovery')) },
      { path: 'reset', element: at(() => import('@/pages/account/reset')) },
      { path: 'verify', element: at(() => import('@/pages/account/verify')) },
      { path: 'confirm', element: at(() => import('@/pages/account/confirm')) },
      { path: 'profile', element: at(() => import('@/pages/account/profile')) },
    ],
  },
  {
    element: <MainLayout />,
    children: [
      { index: true, element: at(() => import('@/pages/home')) },
      { path: 'about', element: at(() => import('@/pages/about')) },
      { path: 'teams', element: at(() => import('@/pages/teams')) },
      { path: 'posts', element: at(() => import('@/pages/posts/index')) },
      { path: 'posts/:postId', element: at(() => import('@/pages/posts/post')) },
      { path: 'posts/:postId/edit', element: at(() => import('@/pages/posts/post-edit')) },
      { path: 'games', element: at(() => import('@/pages/games/index')) },
      { path: 'games/:id', element: at(() => import('@/pages/games/game')) },
      {
        path: 'games/:id',
        element: at(() => import('./layouts/game-layout')),
        children: [
          { path: 'challenges', element: at(() => import('@/pages/games/challenges')) },
          { path: 'scoreboard', element: at(() => import('@/pages/games/scoreboard')) },
          { path: 'monitor', element: <Navigate to="events" replace /> },
          { path: 'monitor/events', element: at(() => import('@/pages/games/monitor/events')) },
          { path: 'monitor/submissions', element: at(() => import('@/pages/games/monitor/submissions')) },
          { path: 'monitor/cheatinfo', element: at(() => import('@/pages/games/monitor/cheat-info')) },
          { path: 'monitor/traffic', element: at(() => import('@/pages/games/monitor/traffic')) },
        ],
      },
      {
        path: 'admin',
        element: at(() => import('./layouts/admin-layout')),
        children: [
          { index: true, element: <Navigate to="games" replace /> },
          { path: 'games', element: at(() => import('@/pages/admin/games/index')) },
          {
            path: 'games/:id',
            element: at(() => import('./layouts/admin-game-layout')),
            children: [
              { index: true, element: <Navigate to="info" replace /> },
              { path: 'info', element: at(() => import('@/pages/admin/games/info')) },
              { path: 'notices', element: at(() => import('@/pages/admin/games/notices')) },
              { path: 'challenges', element: at(() => import('@/pages/admin/games/challenges')) },
              { path: 'challenges/:chalId', element: at(() => import('@/pages/admin/games/challenge')) },
              { path: 'challenges/:chalId/flags', element: at(() => import('@/pages/admin/games/flags')) },
              { path: 'review', element: at(() => import('@/pages/admin/games/review')) },
              { path: 'writeups', element: at(() => import('@/pages/admin/games/writeups')) },
            ],
          },
          { path: 'teams', element: at(() => import('@/pages/admin/teams')) },
          { path: 'users', element: at(() => import('@/pages/admin/users')) },
          { path: 'instances', element: at(() => import('@/pages/admin/instances')) },
          { path: 'logs', element: at(() => import('@/pages/admin/logs')) },
          { path: 'settings', element: at(() => import('@/pages/admin/settings')) },
        ],
      },
      { path: '*', element: at(() => import('@/pages/not-found')) },
    ],
  },
]

/** Shown while a page's chunk loads. */
export function PageLoader() {
  return (
    <Center mih="40vh">
      <Loader type="dots" aria-label="Loading" />
    </Center>
  )
}

/** The routes, each rendering failure caught by the error screen (reset on navigation). */
export function AppRoutes() {
  const element = useRoutes(routes)
  const { pathname } = useLocation()
  return (
    <ErrorBoundary key={pathname}>
      <Suspense fallback={<PageLoader />}>{element}</Suspense>
    </ErrorBoundary>
  )
}
