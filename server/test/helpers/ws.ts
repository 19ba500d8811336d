import WebSocket from 'ws'
import type { App } from '../../src/app.ts'
import type { Agent } from './agent.ts'

/** A refused upgrade: the HTTP answer the server gave instead. */
export class Refused extends Error {
  constructor(
    readonly status: number,
    readonly body: { title?: string; status?: number },
  ) {
    super(`upgrade refused with ${status}: ${JSON.stringify(body)}`)
  }
}

/** The app listening on a loopback port (WebSockets need a real socket); its base URL. */
export async function listen(app: App): Promise<string> {
  const address = await app.listen({ host: '127.0.0.1', port: 0 })
  return address.replace(/^http/, 'ws')
}

/** Opens a WebSocket as `agent` (its cookies) or anonymously; rejects with {@link Refused}. */
export function openSocket(url: string, agent?: Agent): Promise<WebSocket> {
  const headers: Record<string, string> = {}
  if (agent?.cookies.size) headers.cookie = [...agent.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers })
    ws.once('open', () => resolve(ws))
    ws.once('unexpected-response', (_req, res) => {
      let text = ''
      res.on('data', (d: Buffer) => {
        text += d.toString()
      })
      res.on('end', () => {
        let body = {}
        try {
          body = JSON.parse(text)
        } catch {
          // no JSON body (204)
        }
        reject(new Refused(res.statusCode ?? 0, body))
      })
    })
    ws.once('error', reject)
  })
}

/** Everything the server sends until it closes, and how it closed. */
export function readAll(ws: WebSocket): Promise<{ bytes: Buffer; code: number; reason: string }> {
  const chunks: Buffer[] = []
  ws.on('message', (d: Buffer) => chunks.push(d))
  return new Promise((resolve) => {
    ws.once('close', (code, reason) =>
      resolve({ bytes: Buffer.concat(chunks), code, reason: reason.toString() }),
    )
  })
}

/** Collects messages until `n` bytes arrived. */
export function readBytes(ws: WebSocket, n: number, timeoutMs = 20_000): Promise<Buffer> {
  const chunks: Buffer[] = []
  let got = 0
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`only ${got} of ${n} bytes arrived`)), timeoutMs)
    const onMessage = (d: Buffer) => {
      chunks.push(d)
      got += d.length
      if (got >= n) {
        clearTimeout(timer)
        ws.off('message', onMessage)
        resolve(Buffer.concat(chunks))
      }
    }
    ws.on('message', onMessage)
    ws.once('close', () => {
      clearTimeout(timer)
      reject(new Error(`closed after ${got} of ${n} bytes`))
    })
  })
}
