/**
 * The rehearsal's HTTP side: one keep-alive agent per server, a cookie-keeping session per
 * player (as a browser tab), and a recorder that keeps every request's kind, start, latency and
 * status so the report can plot them over time.
 */
import http from 'node:http'

export interface Sample {
  /** Milliseconds since the run began, when the request went out. */
  t: number
  kind: string
  ms: number
  /** HTTP status; 0 when the connection failed or timed out. */
  status: number
}

export class Recorder {
  readonly t0 = Date.now()
  readonly samples: Sample[] = []
  now() {
    return Date.now() - this.t0
  }
  add(kind: string, started: number, status: number) {
    this.samples.push({ t: started - this.t0, kind, ms: Date.now() - started, status })
  }
}

export interface Answer {
  status: number
  text: string
  headers: http.IncomingHttpHeaders
}

const agents = new Map<string, http.Agent>()
function agentFor(base: string) {
  let agent = agents.get(base)
  if (!agent) {
    agent = new http.Agent({ keepAlive: true, maxSockets: 128 })
    agents.set(base, agent)
  }
  return agent
}
export function closeAgents() {
  for (const a of agents.values()) a.destroy()
  agents.clear()
}

/** A player's (or the organiser's) browser: cookies, the XSRF double submit, ETags per path. */
export class Session {
  cookies = new Map<string, string>([['XSRF-TOKEN', 'rehearsal']])
  etags = new Map<string, string>()
  bodies = new Map<string, string>()
  constructor(
    public base: string,
    readonly rec: Recorder,
    readonly timeoutMs = 30_000,
  ) {}

  async request(
    kind: string,
    method: string,
    path: string,
    body?: unknown,
    extra: Record<string, string> = {},
  ): Promise<Answer> {
    const url = new URL(this.base)
    const payload = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body)
    const started = Date.now()
    const once = () =>
      new Promise<Answer & { stale?: boolean }>((resolve) => {
        let done = false
        const finish = (a: Answer & { stale?: boolean }) => {
          if (done) return
          done = true
          resolve(a)
        }
        const req = http.request(
          {
            agent: agentFor(this.base),
            host: url.hostname,
            port: url.port,
            method,
            path,
            headers: {
              accept: 'application/json',
              'accept-language': 'en-US',
              cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
              'x-xsrf-token': this.cookies.get('XSRF-TOKEN') ?? '',
              ...(payload !== undefined ? { 'content-type': 'application/json' } : {}),
              ...extra,
            },
          },
          (res) => {
            for (const c of res.headers['set-cookie'] ?? []) {
              const [pair] = c.split(';')
              const i = pair!.indexOf('=')
              this.cookies.set(pair!.slice(0, i), pair!.slice(i + 1))
            }
            let text = ''
            res.setEncoding('utf8')
            res.on('data', (c: string) => {
              text += c
            })
            res.on('end', () => finish({ status: res.statusCode ?? 0, text, headers: res.headers }))
            res.on('error', () => finish({ status: 0, text: '', headers: {} }))
          },
        )
        req.setTimeout(this.timeoutMs, () => req.destroy(new Error('timeout')))
        req.on('error', (err: NodeJS.ErrnoException) =>
          // A kept-alive connection the server closed just as this request went out: the request
          // never reached it, and a browser sends it again on a new connection.
          finish({ status: 0, text: '', headers: {}, stale: req.reusedSocket && err.code === 'ECONNRESET' }),
        )
        req.end(payload)
      })
    let a = await once()
    if (a.stale) a = await once()
    this.rec.add(kind, started, a.status)
    return { status: a.status, text: a.text, headers: a.headers }
  }

  /** A GET with If-None-Match as a browser sends it; the body of a 304 is the one seen before. */
  async conditional(kind: string, path: string): Promise<Answer> {
    const etag = this.etags.get(path)
    const a = await this.request(kind, 'GET', path, undefined, etag ? { 'if-none-match': etag } : {})
    if (a.status === 200) {
      const tag = a.headers.etag
      if (typeof tag === 'string') {
        this.etags.set(path, tag)
        this.bodies.set(path, a.text)
      }
    } else if (a.status === 304) return { ...a, text: this.bodies.get(path) ?? '' }
    return a
  }

  json<T>(a: Answer): T | null {
    try {
      return a.text ? (JSON.parse(a.text) as T) : null
    } catch {
      return null
    }
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
