import { Center, Loader } from '@mantine/core'
import { type ComponentType, Suspense } from 'react'
import { Navigate, type RouteObject, useLocation, useRoutes } from 'react-router'
import { loadAreas } from '@/i18n'
import NotFound from '@/pages/not-found'
import { ErrorBoundary } from './error-screen'
import { AccountLayout } from './layouts/account-layout'
import { lazyPage } from './lazy-page'

// Declarative routing (BrowserRouter + useRoutes): the data router would add ~16 KB gzip to
// every first load for loaders and actions the client does not use.
/** A page loaded with the translation areas it uses (beyond `common`). */
const at = (load: () => Promise<{ default: ComponentType }>, areas: readonly string[] = []) => {
  const Page = lazyPage(async () => (await Promise.all([load(), loadAreas(areas)]))[0])
  return <Page />
}
const ACCOUNT = ['account']
const POST = ['post']
const GAME = ['game', 'challenge']
const ADMIN = ['admin']

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
      { path: 'login', element: at(() => import('@/pages/account/login'), ACCOUNT) },
      { path: 'register', element: at(() => import('@/pages/account/register'), ACCOUNT) },
      { path: 'recovery', element: at(() => import('@/pages/account/recovery'), ACCOUNT) },
      { path: 'reset', element: at(() => import('@/pages/account/reset'), ACCOUNT) },
      { path: 'verify', element: at(() => import('@/pages/account/verify'), ACCOUNT) },
      { path: 'confirm', element: at(() => import('@/pages/account/confirm'), ACCOUNT) },
      { path: 'profile', element: at(() => import('@/pages/account/profile'), ACCOUNT) },
    ],
  },
  {
    element: <MainLayout />,
    children: [
      { index: true, element: at(() => import('@/pages/home'), POST) },
      { path: 'about', element: at(() => import('@/pages/about'), ['about']) },
      { path: 'teams', element: at(() => import('@/pages/teams'), ['team']) },
      { path: 'posts', element: at(() => import('@/pages/posts/index'), POST) },
      { path: 'posts/:postId', element: at(() => import('@/pages/posts/post'), POST) },
      { path: 'posts/:postId/edit', element: at(() => import('@/pages/posts/post-edit'), POST) },
      { path: 'games', element: at(() => import('@/pages/games/index'), GAME) },
      { path: 'games/:id', element: at(() => import('@/pages/games/game'), GAME) },
      {
        path: 'games/:id',
        element: at(() => import('./layouts/game-layout'), GAME),
        children: [
          { path: 'challenges', element: at(() => import('@/pages/games/challenges'), GAME) },
          { path: 'scoreboard', element: at(() => import('@/pages/games/scoreboard'), GAME) },
          { path: 'monitor', element: <Navigate to="events" replace /> },
          { path: 'monitor/events', element: at(() => import('@/pages/games/monitor/events'), GAME) },
          {
            path: 'monitor/submissions',
            element: at(() => import('@/pages/games/monitor/submissions'), GAME),
          },
          { path: 'monitor/cheatinfo', element: at(() => import('@/pages/games/monitor/cheat-info'), GAME) },
          { path: 'monitor/traffic', element: at(() => import('@/pages/games/monitor/traffic'), GAME) },
        ],
      },
      {
        path: 'admin',
        element: at(() => import('./layouts/admin-layout'), ADMIN),
        children: [
          { index: true, element: <Navigate to="games" replace /> },
          { path: 'games', element: at(() => import('@/pages/admin/games/index'), ADMIN) },
          {
            path: 'games/:id',
            element: at(() => import('./layouts/admin-game-layout'), ADMIN),
            children: [
              { index: true, element: <Navigate to="info" replace /> },
              { path: 'info', element: at(() => import('@/pages/admin/games/info'), ADMIN) },
              { path: 'notices', element: at(() => import('@/pages/admin/games/notices'), ADMIN) },
              { path: 'challenges', element: at(() => import('@/pages/admin/games/challenges'), ADMIN) },
              {
                path: 'challenges/:chalId',
                element: at(() => import('@/pages/admin/games/challenge'), ADMIN),
              },
              {
                path: 'challenges/:chalId/flags',
                element: at(() => import('@/pages/admin/games/flags'), ADMIN),
              },
              { path: 'review', element: at(() => import('@/pages/admin/games/review'), ADMIN) },
              { path: 'writeups', element: at(() => import('@/pages/admin/games/writeups'), ADMIN) },
            ],
          },
          { path: 'teams', element: at(() => import('@/pages/admin/teams'), ADMIN) },
          { path: 'users', element: at(() => import('@/pages/admin/users'), ADMIN) },
          { path: 'instances', element: at(() => import('@/pages/admin/instances'), ADMIN) },
          { path: 'logs', element: at(() => import('@/pages/admin/logs'), ADMIN) },
          { path: 'files', element: at(() => import('@/pages/admin/files'), ADMIN) },
          { path: 'settings', element: at(() => import('@/pages/admin/settings'), ADMIN) },
          { path: 'tokens', element: at(() => import('@/pages/admin/tokens'), ADMIN) },
        ],
      },
      // Not lazy: the role guard shows it too, so it is in the first load anyway.
      { path: '*', element: <NotFound /> },
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
