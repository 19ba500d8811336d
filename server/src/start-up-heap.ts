import v8 from 'node:v8'

/**
 * Keeps V8's young generation at its first size while the server starts; `startedUp` lets it
 * grow again. Imported first by main.ts, so this runs before any other module is evaluated.
 *
 * V8 doubles the young generation (up to 2 × 16 MiB) whenever much of it survives a
 * collection. While a server starts nearly everything survives (modules, routes, the boards of
 * running games: all kept for the life of the process, and moved to the old generation
 * anyway), so it reached its largest size before the first request and kept it while idle:
 * ~25 of the ~160 MiB a server held after starting on 6 000 teams. Under traffic what survives
 * is the requests in flight, and it grows as before.
 *
 * The flag is one V8 reads at each resize, so setting it at run time takes effect (a start-up
 * flag would be one more thing every way of starting the server must pass). Keeping it at 1
 * for good cost ~25 % more server CPU per verdict under load (`npm run bench -- --verdicts`).
 */
let starting = true

/** Holds the young generation at its size; again after a worker thread starts (see below). */
export function holdYoungGeneration(): void {
  // Node sets V8's flags again when it starts a worker thread (PGlite's), undoing this one.
  if (starting) v8.setFlagsFromString('--semi-space-growth-factor=1')
}

/** V8's own growth factor, restored once the server serves. */
export function startedUp(): void {
  starting = false
  v8.setFlagsFromString('--semi-space-growth-factor=2')
}

holdYoungGeneration()
