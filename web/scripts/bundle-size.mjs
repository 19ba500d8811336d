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

/** Loaded on every first visit, whatever the route. */
const always = [
  ...Object.keys(manifest).filter((k) => manifest[k].isEntry),
  ...Object.keys(manifest).filter((k) => k.startsWith('src/i18n/locales/en-US/')),
]

/** Route → the modules it loads on top of `always` (and how the budget applies). */
const routes = [
  ['/account/login', ['src/pages/account/login.tsx'], 150],
  ['/account/register', ['src/pages/account/register.tsx'], 150],
  ['/account/recovery', ['src/pages/account/recovery.tsx'], 150],
  ['/account/reset', ['src/pages/account/reset.tsx'], 150],
  ['/account/verify', ['src/pages/account/verify.tsx'], 150],
  ['/account/confirm', ['src/pages/account/confirm.tsx'], 150],
  ['/account/profile', ['src/pages/account/profile.tsx'], 150],
  ['/', [MAIN, 'src/pages/home.tsx', MARKDOWN]],
  ['/about', [MAIN, 'src/pages/about.tsx']],
  ['/posts', [MAIN, 'src/pages/posts/index.tsx', MARKDOWN]],
  ['/posts/:postId', [MAIN, 'src/pages/posts/post.tsx', MARKDOWN]],
  ['/posts/:postId/edit', [MAIN, 'src/pages/posts/post-edit.tsx']],
  ['/teams', [MAIN, 'src/pages/teams.tsx']],
  ['/games', [MAIN, 'src/pages/games/index.tsx']],
  ['/games/:id', [MAIN, 'src/pages/games/game.tsx', MARKDOWN]],
  ['/games/:id/challenges', [MAIN, GAME, 'src/pages/games/challenges.tsx'], 250],
  ['/games/:id/scoreboard', [MAIN, GAME, 'src/pages/games/scoreboard.tsx'], 250],
  ['/games/:id/monitor/events', [MAIN, GAME, 'src/pages/games/monitor/events.tsx']],
  ['/games/:id/monitor/submissions', [MAIN, GAME, 'src/pages/games/monitor/submissions.tsx']],
  ['/games/:id/monitor/cheatinfo', [MAIN, GAME, 'src/pages/games/monitor/cheat-info.tsx']],
  ['/games/:id/monitor/traffic', [MAIN, GAME, 'src/pages/games/monitor/traffic.tsx']],
  ['/admin/games', [MAIN, ADMIN, 'src/pages/admin/games/index.tsx']],
  ['/admin/games/:id/info', [MAIN, ADMIN, ADMIN_GAME, 'src/pages/admin/games/info.tsx']],
  ['/admin/games/:id/challenges', [MAIN, ADMIN, ADMIN_GAME, 'src/pages/admin/games/challenges.tsx']],
  ['/admin/games/:id/challenges/:chalId', [MAIN, ADMIN, ADMIN_GAME, 'src/pages/admin/games/challenge.tsx']],
  ['/admin/games/:id/challenges/:chalId/flags', [MAIN, ADMIN, ADMIN_GAME, 'src/pages/admin/games/flags.tsx']],
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
  for (const key of [...always, ...modules]) collect(key, files)
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
