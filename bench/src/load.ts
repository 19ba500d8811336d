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
 * until `seconds` pass or `next` returns null. Keep-alive connections, latency per request.
 */
export async function load(opts: {
  port: number
  concurrency: number
  seconds: number
  next: (loop: number) => LoadRequest | null
  onResponse?: (status: number, body: Buffer, req: LoadRequest) => void
}): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: opts.concurrency })
  const latencies: number[] = []
  const statuses: Record<number, number> = {}
  let errors = 0
  const started = process.hrtime.bigint()
  const deadline = Date.now() + opts.seconds * 1000

  function send(req: LoadRequest): Promise<void> {
    return new Promise((resolve) => {
      const t0 = process.hrtime.bigint()
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
            opts.onResponse?.(status, Buffer.concat(chunks), req)
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
      while (Date.now() < deadline) {
        const req = opts.next(loop)
        if (!req) return
        await send(req)
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
