/**
 * The API answers a page asks for as soon as it renders, as its hooks ask for them
 * (features/*\/api.ts: the same URLs, or an early answer goes unused), by the page's module.
 * Start-up fetches them with the page's code (router.tsx `preloadRoute`); for the routes of
 * scripts/first-loads.mjs the HTML page itself starts them, before any code has arrived
 * (vite.config.ts). `{id}` is the route's `:id`. Plain data: the build reads it too.
 */
export const PAGE_DATA = {
  // The frame asks who is signed in on every page it shows.
  'src/app/layouts/main-layout.tsx': ['/api/account/profile'],
  'src/pages/home.tsx': ['/api/posts/latest', '/api/game/recent?limit=6'],
  'src/pages/games/challenges.tsx': ['/api/game/{id}', '/api/game/{id}/details'],
  // The team's details mark its own row (scoreboard-view.tsx), which changes the row's height.
  'src/pages/games/scoreboard.tsx': ['/api/game/{id}', '/api/game/{id}/scoreboard', '/api/game/{id}/details'],
  'src/pages/games/bigscreen.tsx': ['/api/ext/features'],
} as const satisfies Record<string, readonly string[]>

/** What every page asks for first (main.tsx). */
export const START_DATA = '/api/config'
