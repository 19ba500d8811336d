import type { Socket } from 'node:net'
import type { App } from './app.ts'

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/**
 * Tracks the listener's sockets from the start, so a shutdown that overruns its deadline can cut
 * what is left (plain HTTP and upgraded WebSockets alike; Node's `closeAllConnections` only
 * knows the former).
 */
export function trackSockets(app: App) {
  const sockets = new Set<Socket>()
  app.server.on('connection', (socket: Socket) => {
    sockets.add(socket)
    socket.once('close', () => sockets.delete(socket))
  })
  return {
    get open() {
      return sockets.size
    },
    destroyAll() {
      for (const s of sockets) s.destroy()
    },
  }
}

/**
 * Stops the server politely (SIGTERM, SIGINT):
 * 1. `/healthz/ready` answers 503 at once, and every answer asks its client to close the
 *    connection; for `delayMs` the server still accepts, so a load balancer that polls readiness
 *    stops sending before the port closes;
 * 2. the hubs tell their clients to reconnect (to another server behind the proxy) and close;
 * 3. `app.close()`: the listener stops accepting, in-flight requests finish, then the onClose
 *    hooks run (the judge finishes what it accepted, audit entries are written, job leases go).
 *    Requests still running after `timeoutMs` are cut, and the hooks run all the same.
 * Resolves `true` when everything finished in time.
 */
export async function drainAndClose(
  app: App,
  sockets: ReturnType<typeof trackSockets>,
  opts: { delayMs: number; timeoutMs: number },
): Promise<boolean> {
  app.ops.draining = true
  if (opts.delayMs > 0) await sleep(opts.delayMs)
  for (const hub of Object.values(app.hubs)) hub.goingAway()
  let timer: NodeJS.Timeout | undefined
  const overran = new Promise<'overran'>((resolve) => {
    timer = setTimeout(() => resolve('overran'), opts.timeoutMs)
  })
  const closing = app.close()
  const first = await Promise.race([closing.then(() => 'closed' as const), overran])
  clearTimeout(timer)
  if (first === 'closed') return true
  app.log.warn({ open: sockets.open }, 'requests still running at the shutdown deadline; closing them')
  app.server.closeAllConnections()
  sockets.destroyAll()
  await closing
  return false
}
