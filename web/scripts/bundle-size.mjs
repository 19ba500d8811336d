// Prints the gzip size of each route's first load: the JS and CSS a browser fetches before the
// page is usable, read from the build manifest (run `npm run build -w web` first).
// A route's first load = the entry and everything it always loads at start (toasts, English
// strings) + the route's layouts and page + their static imports + chunks the page shows at
// once (Markdown). Shared chunks count once per route.
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'

const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist')
const manifest = JSON.parse(readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8'))

const MAIN = 'src/app/layouts/main-layout.tsx'
const GAME = 'src/app/layouts/game-layout.tsx'
const ADMIN = 'src/app/layouts/admin-layout.tsx'
const ADMIN_GAME = 'src/app/layouts/admin-game-layout.tsx'
const MARKDOWN = 'src/components/markdown/markdown-view.tsx'

/** English strings of an area (app/router.tsx loads a page's areas with it). */
const strings = (area) => `src/i18n/locales/en-US/${area}.json`
const ACCOUNT = strings('account')
const POST = strings('post')
const GAME_STRINGS = [strings('game'), strings('challenge')]
const ADMIN_STRINGS = strings('admin')
/** The frame's strings load with the main layout (app/router.tsx). */
const FRAME_STRINGS = strings('frame')

/** Loaded on every first visit, whatever the route. */
const always = [...Object.keys(manifest).filter((k) => manifest[k].isEntry), strings('common')]

/** Route → the modules it loads on top of `always` (and how the budget applies). */
const routes = [
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

const gz = new Map()
function gzipSize(file) {
  if (!gz.has(file)) gz.set(file, gzipSync(readFileSync(path.join(dist, file)), { level: 9 }).length)
  return gz.get(file)
}

/** Every file a module pulls in statically (itself, its static imports, their CSS). */
function collect(key, files, seen = new Set()) {
  if (seen.has(key)) return
  seen.add(key)
  const entry = manifest[key]
  // A module nothing imports yet (e.g. Markdown before a page uses it) is simply not counted.
  if (!entry) return
  files.add(entry.file)
  for (const css of entry.css ?? []) files.add(css)
  for (const imported of entry.imports ?? []) collect(imported, files, seen)
}

const kb = (bytes) => (bytes / 1024).toFixed(1).padStart(6)
let failed = false
console.log('route                                         JS KB  CSS KB  total KB  budget')
for (const [route, modules, budget] of routes) {
  const files = new Set()
  for (const key of [...always, ...modules, ...(modules.includes(MAIN) ? [FRAME_STRINGS] : [])])
    collect(key, files)
  let js = 0
  let css = 0
  for (const file of files) {
    if (file.endsWith('.css')) css += gzipSize(file)
    else if (file.endsWith('.js')) js += gzipSize(file)
  }
  const total = js + css
  const over = budget && total / 1024 > budget
  failed ||= Boolean(over)
  console.log(
    `${route.padEnd(44)} ${kb(js)}  ${kb(css)}  ${kb(total)}    ${budget ? `${budget}${over ? ' OVER' : ''}` : ''}`,
  )
}
console.log('\nsizes are gzip -9 of the built files, in KiB; budgets from the issues')
if (failed && process.argv.includes('--check')) process.exit(1)
