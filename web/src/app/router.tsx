import { type ComponentType, Suspense } from 'react'
import { matchRoutes, Navigate, type Params, type RouteObject, useLocation, useRoutes } from 'react-router'
import { prefetch } from '@/api/hooks'
import { PageLoader } from '@/components/page-loader'
import { loadAreas } from '@/i18n'
import NotFound from '@/pages/not-found'
import { PAGE_DATA } from './early-data'
import { ErrorBoundary } from './error-screen'
import { AccountLayout } from './layouts/account-layout'
import { type LazyPage, lazyPage } from './lazy-page'

// Declarative routing (BrowserRouter + useRoutes): the data router would add ~16 KB gzip to
// every first load for loaders and actions the client does not use.

/** What a route can start fetching before it renders (see `preloadRoute`). */
interface RouteHandle {
  /** Starts the route's loads; settles when its own code is here (or failed). */
  preload: (params: Params) => Promise<void>
}

/** The API answers a route's page asks for as soon as it renders, by the URL's parameters. */
type PageData = (params: Params) => string[]

/** What a page needs at once besides its code: its first data, and code it loads itself. */
interface Early {
  data?: PageData
  /** Lazy parts the page shows on arrival (Markdown), fetched alongside instead of after. */
  parts?: () => Promise<unknown>
}

/** A lazy module's route fields: its element, and a handle that fetches it and its needs early. */
const route = (Page: LazyPage, early: Early = {}): Pick<RouteObject, 'element' | 'handle'> => ({
  element: <Page />,
  handle: {
    preload(params) {
      for (const url of early.data?.(params) ?? []) prefetch(url)
      early.parts?.().catch(() => {}) // the page reports a failure when it renders the part
      return Page.preload()
    },
  } satisfies RouteHandle,
})

/** A page loaded with the translation areas it uses (beyond `common`), and what it needs at once. */
const at = (load: () => Promise<{ default: ComponentType }>, areas: readonly string[] = [], early?: Early) =>
  route(
    lazyPage(async () => (await Promise.all([load(), loadAreas(areas)]))[0]),
    early,
  )

/** A page's first requests (early-data.ts), for the URL's parameters; none for an `id` that names no game. */
const pageData =
  (source: keyof typeof PAGE_DATA): PageData =>
  (params) => {
    const id = Number(params.id)
    const valid = Number.isSafeInteger(id) && id > 0
    return PAGE_DATA[source].flatMap((url) =>
      url.includes('{id}') ? (valid ? [url.replace('{id}', String(id))] : []) : [url],
    )
  }
const HOME: Early = {
  data: pageData('src/pages/home.tsx'),
  // The posts' summaries are Markdown.
  parts: () => import('@/components/markdown/markdown-view'),
}
const CHALLENGES: Early = { data: pageData('src/pages/games/challenges.tsx') }
const SCOREBOARD: Early = { data: pageData('src/pages/games/scoreboard.tsx') }
const BIGSCREEN: Early = { data: pageData('src/pages/games/bigscreen.tsx') }
const ACCOUNT = ['account']
const POST = ['post']
const GAME = ['game', 'challenge']
const ADMIN = ['admin']
// Sign-in with an identity provider: its admin screen has an area of its own.
const OIDC_ADMIN = ['admin', 'oidc']

// The frame's own strings (the tunnel control, the live badge) come with it, not with `common`:
// the account screens, which load no frame, do not pay for them.
const FRAME = ['frame']
const MainLayout = lazyPage(
  async () => (await Promise.all([import('./layouts/main-layout'), loadAreas(FRAME)]))[0],
)
const MAIN: Early = { data: pageData('src/app/layouts/main-layout.tsx') }

/**
 * The seed's route table (section 2). Matching is case-insensitive (React Router's default);
 * every page and every area layout is its own chunk, loaded on first visit.
 */
const routes: RouteObject[] = [
  {
    path: 'account',
    element: <AccountLayout />,
    children: [
      { path: 'login', ...at(() => import('@/pages/account/login'), ACCOUNT) },
      { path: 'register', ...at(() => import('@/pages/account/register'), ACCOUNT) },
      { path: 'recovery', ...at(() => import('@/pages/account/recovery'), ACCOUNT) },
      { path: 'reset', ...at(() => import('@/pages/account/reset'), ACCOUNT) },
      { path: 'verify', ...at(() => import('@/pages/account/verify'), ACCOUNT) },
      { path: 'confirm', ...at(() => import('@/pages/account/confirm'), ACCOUNT) },
    ],
  },
  // The projector's scoreboard fills the screen: no site frame around it.
  {
    path: 'games/:id/bigscreen',
    ...at(() => import('@/pages/games/bigscreen'), ['bigscreen'], BIGSCREEN),
  },
  {
    ...route(MainLayout, MAIN),
    children: [
      { index: true, ...at(() => import('@/pages/home'), POST, HOME) },
      { path: 'about', ...at(() => import('@/pages/about'), ['about']) },
      { path: 'teams', ...at(() => import('@/pages/teams'), ['team']) },
      // The profile is a signed-in screen like the others: inside the navigation frame.
      { path: 'account/profile', ...at(() => import('@/pages/account/profile'), ACCOUNT) },
      { path: 'posts', ...at(() => import('@/pages/posts/index'), POST) },
      { path: 'posts/:postId', ...at(() => import('@/pages/posts/post'), POST) },
      { path: 'posts/:postId/edit', ...at(() => import('@/pages/posts/post-edit'), POST) },
      { path: 'games', ...at(() => import('@/pages/games/index'), GAME) },
      { path: 'games/:id', ...at(() => import('@/pages/games/game'), GAME) },
      {
        path: 'games/:id',
        ...at(() => import('./layouts/game-layout'), GAME),
        children: [
          { path: 'challenges', ...at(() => import('@/pages/games/challenges'), GAME, CHALLENGES) },
          { path: 'scoreboard', ...at(() => import('@/pages/games/scoreboard'), GAME, SCOREBOARD) },
          { path: 'monitor', element: <Navigate to="events" replace /> },
          { path: 'monitor/events', ...at(() => import('@/pages/games/monitor/events'), GAME) },
          {
            path: 'monitor/submissions',
            ...at(() => import('@/pages/games/monitor/submissions'), GAME),
          },
          { path: 'monitor/cheatinfo', ...at(() => import('@/pages/games/monitor/cheat-info'), GAME) },
          { path: 'monitor/traffic', ...at(() => import('@/pages/games/monitor/traffic'), GAME) },
        ],
      },
      {
        path: 'admin',
        ...at(() => import('./layouts/admin-layout'), ADMIN),
        children: [
          { index: true, element: <Navigate to="games" replace /> },
          { path: 'games', ...at(() => import('@/pages/admin/games/index'), ADMIN) },
          {
            path: 'games/:id',
            ...at(() => import('./layouts/admin-game-layout'), ADMIN),
            children: [
              { index: true, element: <Navigate to="info" replace /> },
              { path: 'info', ...at(() => import('@/pages/admin/games/info'), ADMIN) },
              { path: 'notices', ...at(() => import('@/pages/admin/games/notices'), ADMIN) },
              { path: 'challenges', ...at(() => import('@/pages/admin/games/challenges'), ADMIN) },
              {
                path: 'challenges/:chalId',
                ...at(() => import('@/pages/admin/games/challenge'), ADMIN),
              },
              {
                path: 'challenges/:chalId/flags',
                ...at(() => import('@/pages/admin/games/flags'), ADMIN),
              },
              { path: 'review', ...at(() => import('@/pages/admin/games/review'), ADMIN) },
              { path: 'writeups', ...at(() => import('@/pages/admin/games/writeups'), ADMIN) },
            ],
          },
          { path: 'teams', ...at(() => import('@/pages/admin/teams'), ADMIN) },
          { path: 'users', ...at(() => import('@/pages/admin/users'), ADMIN) },
          { path: 'instances', ...at(() => import('@/pages/admin/instances'), ADMIN) },
          { path: 'logs', ...at(() => import('@/pages/admin/logs'), ADMIN) },
          { path: 'files', ...at(() => import('@/pages/admin/files'), ADMIN) },
          { path: 'settings', ...at(() => import('@/pages/admin/settings'), ADMIN) },
          { path: 'tokens', ...at(() => import('@/pages/admin/tokens'), ADMIN) },
          {
            path: 'identity-providers',
            ...at(() => import('@/pages/admin/identity-providers'), OIDC_ADMIN),
          },
          { path: 'webhooks', ...at(() => import('@/pages/admin/webhooks'), [...ADMIN, 'webhooks']) },
        ],
      },
      // Not lazy: the role guard shows it too, so it is in the first load anyway.
      { path: '*', element: <NotFound /> },
    ],
  },
]

/**
 * Starts loading the code of every layout and page `pathname` shows, with their strings and the
 * first data they ask for, all at once: rendering would otherwise discover them one level at a
 * time (frame, then game area, then page, then its data), a round trip each on a phone network.
 * Settles when the layouts' and pages' code is here.
 */
export async function preloadRoute(pathname: string): Promise<void> {
  await Promise.all(
    (matchRoutes(routes, pathname) ?? []).map(({ route: matched, params }) =>
      (matched.handle as RouteHandle | undefined)?.preload(params),
    ),
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
