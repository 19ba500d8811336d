import type { InjectOptions, LightMyRequestResponse } from 'fastify'
import type { App } from '../../src/app.ts'

let nextAddress = 1

/**
 * A browser-like client over `app.inject`: keeps cookies, echoes the XSRF cookie in the
 * `X-XSRF-TOKEN` header as axios does, and comes from its own address (so per-address rate
 * limits of one test do not leak into another).
 */
export class Agent {
  readonly cookies = new Map<string, string>()
  readonly ip: string
  /** Whether to echo the XSRF token, as the web client does. */
  xsrf = true

  constructor(
    readonly app: App,
    ip?: string,
  ) {
    const n = nextAddress++
    this.ip = ip ?? `198.51.${(n >> 8) & 255}.${n & 255}`
  }

  async request(opts: InjectOptions): Promise<LightMyRequestResponse> {
    const headers: Record<string, string> = { ...(opts.headers as Record<string, string>) }
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
    const xsrf = this.cookies.get('XSRF-TOKEN')
    if (this.xsrf && xsrf && !headers['x-xsrf-token']) headers['x-xsrf-token'] = xsrf
    const res = await this.app.inject({ remoteAddress: this.ip, ...opts, headers })
    for (const c of res.cookies as { name: string; value: string; expires?: Date; maxAge?: number }[]) {
      const expired = (c.expires && c.expires.getTime() <= Date.now()) || c.maxAge === 0 || c.value === ''
      if (expired) this.cookies.delete(c.name)
      else this.cookies.set(c.name, c.value)
    }
    return res
  }

  get = (url: string, headers?: Record<string, string>) => this.request({ method: 'GET', url, headers })
  post = (url: string, payload?: unknown) => this.request({ method: 'POST', url, ...json(payload) })
  put = (url: string, payload?: unknown) => this.request({ method: 'PUT', url, ...json(payload) })
  delete = (url: string) => this.request({ method: 'DELETE', url })

  /** A multipart upload of one file in `field`. */
  upload(
    method: 'PUT' | 'POST',
    url: string,
    file: { bytes: Buffer; name: string; type: string },
    field = 'file',
  ) {
    const boundary = `----pennant${Math.random().toString(16).slice(2)}`
    const body = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`,
      ),
      file.bytes,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ])
    return this.request({
      method,
      url,
      payload: body,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    })
  }
}

function json(payload: unknown): Partial<InjectOptions> {
  if (payload === undefined) return {}
  return { payload: JSON.stringify(payload), headers: { 'content-type': 'application/json' } }
}
