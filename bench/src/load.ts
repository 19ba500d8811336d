import http from 'node:http'

/** Latency figures of one load phase. */
export interface LoadResult {
  requests: number
  errors: number
  seconds: number
  perSecond: number
  p50: number
  p99: number
  statuses: Record<number, number>
}

export interface LoadRequest {
  method: string
  path: string
  headers?: Record<string, string>
  body?: string
}

/**
 * Closed-loop load: `concurrency` loops each send a request, wait for the whole answer, repeat,
 * until `seconds` pass, `stop` says so or `next` returns null. Keep-alive connections, latency per
 * request.
 * With `rate`, the loops share that many requests a second on a fixed schedule (a loop that falls
 * behind sends at once), and latency counts from when the request was due, not when it went out:
 * the same offered load in every phase, and a stall shows in the figures instead of thinning them.
 */
export async function load(opts: {
  port: number
  concurrency: number
  seconds: number
  rate?: number
  stop?: () => boolean
  next: (loop: number) => LoadRequest | null
  onResponse?: (status: number, body: Buffer, req: LoadRequest, headers: http.IncomingHttpHeaders) => void
}): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: opts.concurrency })
  const latencies: number[] = []
  const statuses: Record<number, number> = {}
  let errors = 0
  const started = process.hrtime.bigint()
  const deadline = Date.now() + opts.seconds * 1000

  // Milliseconds between two requests of one loop when paced.
  const gap = opts.rate ? (opts.concurrency * 1000) / opts.rate : 0

  function send(req: LoadRequest, due?: bigint): Promise<void> {
    return new Promise((resolve) => {
      const now = process.hrtime.bigint()
      const t0 = due !== undefined && due < now ? due : now
      const r = http.request(
        {
          agent,
          host: '127.0.0.1',
          port: opts.port,
          method: req.method,
          path: req.path,
          headers: req.headers,
        },
        (res) => {
          const chunks: Buffer[] = []
          res.on('data', (c: Buffer) => chunks.push(c))
          res.on('end', () => {
            latencies.push(Number(process.hrtime.bigint() - t0) / 1e6)
            const status = res.statusCode ?? 0
            statuses[status] = (statuses[status] ?? 0) + 1
            opts.onResponse?.(status, Buffer.concat(chunks), req, res.headers)
            resolve()
          })
        },
      )
      r.on('error', () => {
        errors++
        resolve()
      })
      if (req.body) r.end(req.body)
      else r.end()
    })
  }

  await Promise.all(
    Array.from({ length: opts.concurrency }, async (_, loop) => {
      // Paced loops start spread over one gap.
      let due = started + BigInt(Math.round(((loop * gap) / opts.concurrency) * 1e6))
      while (Date.now() < deadline && !opts.stop?.()) {
        if (gap) {
          const wait = Number(due - process.hrtime.bigint()) / 1e6
          if (wait > 0) await new Promise((r) => setTimeout(r, wait))
          if (Date.now() >= deadline || opts.stop?.()) return
        }
        const req = opts.next(loop)
        if (!req) return
        await send(req, gap ? due : undefined)
        due += BigInt(Math.round(gap * 1e6))
      }
    }),
  )
  agent.destroy()
  const seconds = Number(process.hrtime.bigint() - started) / 1e9
  latencies.sort((a, b) => a - b)
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0
  return {
    requests: latencies.length,
    errors,
    seconds,
    perSecond: latencies.length / seconds,
    p50: at(0.5),
    p99: at(0.99),
    statuses,
  }
}

export const fmt = (r: LoadResult) =>
  `${r.perSecond.toFixed(0)} req/s, p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms (${r.requests} requests, statuses ${JSON.stringify(r.statuses)}${r.errors ? `, ${r.errors} errors` : ''})`

/**
 * A `next` for `load` that submits correct flags round robin over `teams`, each to a challenge
 * the team has not solved yet (so every submit is judged as a fresh solve); null once none is left.
 */
export function correctFlagSubmits(
  gameId: number,
  teams: { token: string; unsolved: number[] }[],
  headers: (token: string) => Record<string, string>,
): () => LoadRequest | null {
  let cursor = 0
  return () => {
    for (let tries = 0; tries < teams.length; tries++) {
      const team = teams[cursor++ % teams.length]!
      const cid = team.unsolved.shift()
      if (cid === undefined) continue
      return {
        method: 'POST',
        path: `/api/game/${gameId}/challenges/${cid}`,
        headers: { ...headers(team.token), 'content-type': 'application/json' },
        body: JSON.stringify({ flag: `flag{bench_${cid}}` }),
      }
    }
    return null
  }
}
