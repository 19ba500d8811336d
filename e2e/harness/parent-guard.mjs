/**
 * Preloaded into the server process (`node --import`). The harness gives the server a pipe as
 * stdin and never writes to it; when the Playwright runner dies without running its teardown
 * (killed, crashed), the pipe closes and the server shuts down as on SIGTERM, so no server is
 * left behind. Plain JavaScript: the server runs its build with plain Node, without tsx.
 * `--import` preloads run in worker threads too (the PGlite worker), whose own stdin ends at
 * once: only the main thread watches the pipe.
 */
import { isMainThread } from 'node:worker_threads'

if (process.env.PENNANT_E2E_PARENT_GUARD === '1' && isMainThread) {
  const shutdown = () => process.kill(process.pid, 'SIGTERM')
  process.stdin.on('end', shutdown)
  process.stdin.on('error', shutdown)
  process.stdin.resume()
}
