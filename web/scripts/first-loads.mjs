// The routes a visitor most often opens first, and the modules each loads on top of the start-up
// code: the size report (bundle-size.mjs) adds them up against their budgets, and the build
// (vite.config.ts) has the page fetch them all at once from the first byte of HTML.
// Keys are the build manifest's (paths under web/).

const MAIN = 'src/app/layouts/main-layout.tsx'
const GAME = 'src/app/layouts/game-layout.tsx'
const ADMIN = 'src/app/layouts/admin-layout.tsx'
const ADMIN_GAME = 'src/app/layouts/admin-game-layout.tsx'
const MARKDOWN = 'src/components/markdown/markdown-view.tsx'

/** English strings of an area (app/router.tsx loads a page's areas with it). */
export const strings = (area) => `src/i18n/locales/en-US/${area}.json`
const ACCOUNT = strings('account')
const POST = strings('post')
const GAME_STRINGS = [strings('game'), strings('challenge')]
const ADMIN_STRINGS = strings('admin')
/** The frame's strings load with the main layout (app/router.tsx). */
const FRAME_STRINGS = strings('frame')

/** Route → the modules it loads on top of `always` (and how the budget applies). */
export const routes = [
  ['/account/login', ['src/pages/account/login.tsx', ACCOUNT], 150],
  ['/account/register', ['src/pages/account/register.tsx', ACCOUNT], 150],
  ['/account/recovery', ['src/pages/account/recovery.tsx', ACCOUNT], 150],
  ['/account/reset', ['src/pages/account/reset.tsx', ACCOUNT], 150],
  ['/account/verify', ['src/pages/account/verify.tsx', ACCOUNT], 150],
  ['/account/confirm', ['src/pages/account/confirm.tsx', ACCOUNT], 150],
  ['/account/profile', ['src/pages/account/profile.tsx', ACCOUNT], 150],
  ['/', [MAIN, 'src/pages/home.tsx', MARKDOWN, POST]],
  ['/about', [MAIN, 'src/pages/about.tsx', strings('about')]],
  ['/posts', [MAIN, 'src/pages/posts/index.tsx', MARKDOWN, POST]],
  ['/posts/:postId', [MAIN, 'src/pages/posts/post.tsx', MARKDOWN, POST]],
  ['/posts/:postId/edit', [MAIN, 'src/pages/posts/post-edit.tsx', POST]],
  ['/teams', [MAIN, 'src/pages/teams.tsx', strings('team')]],
  ['/games', [MAIN, 'src/pages/games/index.tsx', ...GAME_STRINGS]],
  ['/games/:id', [MAIN, 'src/pages/games/game.tsx', MARKDOWN, ...GAME_STRINGS]],
  ['/games/:id/challenges', [MAIN, GAME, 'src/pages/games/challenges.tsx', ...GAME_STRINGS], 250],
  ['/games/:id/scoreboard', [MAIN, GAME, 'src/pages/games/scoreboard.tsx', ...GAME_STRINGS], 250],
  ['/games/:id/monitor/events', [MAIN, GAME, 'src/pages/games/monitor/events.tsx', ...GAME_STRINGS]],
  [
    '/games/:id/monitor/submissions',
    [MAIN, GAME, 'src/pages/games/monitor/submissions.tsx', ...GAME_STRINGS],
  ],
  ['/games/:id/monitor/cheatinfo', [MAIN, GAME, 'src/pages/games/monitor/cheat-info.tsx', ...GAME_STRINGS]],
  ['/games/:id/monitor/traffic', [MAIN, GAME, 'src/pages/games/monitor/traffic.tsx', ...GAME_STRINGS]],
  ['/admin/games', [MAIN, ADMIN, 'src/pages/admin/games/index.tsx', ADMIN_STRINGS]],
  ['/admin/games/:id/info', [MAIN, ADMIN, ADMIN_GAME, 'src/pages/admin/games/info.tsx', ADMIN_STRINGS]],
  [
    '/admin/games/:id/notices',
    [MAIN, ADMIN, ADMIN_GAME, 'src/pages/admin/games/notices.tsx', MARKDOWN, ADMIN_STRINGS],
  ],
  [
    '/admin/games/:id/challenges',
    [MAIN, ADMIN, ADMIN_GAME, 'src/pages/admin/games/challenges.tsx', ADMIN_STRINGS],
  ],
  [
    '/admin/games/:id/challenges/:chalId',
    [MAIN, ADMIN, ADMIN_GAME, 'src/pages/admin/games/challenge.tsx', ADMIN_STRINGS],
  ],
  [
    '/admin/games/:id/challenges/:chalId/flags',
    [MAIN, ADMIN, ADMIN_GAME, 'src/pages/admin/games/flags.tsx', ADMIN_STRINGS],
  ],
  ['/admin/games/:id/review', [MAIN, ADMIN, ADMIN_GAME, 'src/pages/admin/games/review.tsx', ADMIN_STRINGS]],
  [
    '/admin/games/:id/writeups',
    [MAIN, ADMIN, ADMIN_GAME, 'src/pages/admin/games/writeups.tsx', ADMIN_STRINGS],
  ],
  ['/admin/instances', [MAIN, ADMIN, 'src/pages/admin/instances.tsx', ADMIN_STRINGS]],
  ['/admin/settings', [MAIN, ADMIN, 'src/pages/admin/settings.tsx', ADMIN_STRINGS]],
]

/** A route's modules with what comes along: the frame's strings load with the main layout. */
export const routeModules = (modules) => [...modules, ...(modules.includes(MAIN) ? [FRAME_STRINGS] : [])]

/** The frame's modules: what any page behind it loads at least. */
export const frameModules = routeModules([MAIN])
