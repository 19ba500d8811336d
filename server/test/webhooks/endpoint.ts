import { createHmac, timingSafeEqual } from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'

export interface Received {
  headers: http.IncomingHttpHeaders
  body: string
  json: Record<string, unknown>
  at: number
}

/** What the endpoint does with the next request: answer with a status, or never answer. */
export type Behaviour = number | 'hang'

/**
 * A real HTTP endpoint on 127.0.0.1 that records what it receives. Requests take `plan`'s
 * behaviours in order, then `fallback` (200).
 */
export async function startEndpoint() {
  const received: Received[] = []
  const plan: Behaviour[] = []
  let fallback: Behaviour = 200
  const hanging = new Set<http.ServerResponse>()
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8')
      received.push({ headers: req.headers, body, json: JSON.parse(body), at: Date.now() })
      const next = plan.shift() ?? fallback
      if (next === 'hang') {
        hanging.add(res)
        return
      }
      res.writeHead(next, { 'content-type': 'text/plain' })
      res.end(next < 300 ? 'ok, thanks' : `failure ${next}: ${'x'.repeat(2000)}`)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    plan,
    setFallback(b: Behaviour) {
      fallback = b
    },
    async close() {
      for (const res of hanging) res.destroy()
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}
export type Endpoint = Awaited<ReturnType<typeof startEndpoint>>

/** Checks a delivery's signature as a receiver would (the scheme the README documents). */
export function verifySignature(secret: string, r: Received): boolean {
  const timestamp = r.headers['x-pennant-timestamp']
  const signature = r.headers['x-pennant-signature']
  if (typeof timestamp !== 'string' || typeof signature !== 'string') return false
  const expected = `sha256=${createHmac('sha256', secret).update(`${timestamp}.${r.body}`).digest('hex')}`
  return (
    expected.length === signature.length && timingSafeEqual(Buffer.from(expected), Buffer.from(signature))
  )
}
