/**
 * The proxy bench's interactive players: connections through the proxy that each send 4 KiB,
 * wait for the echo and pause 50 ms. They run in a process of their own, so that their WebSocket
 * work does not delay the bench's own timing of flag submits on the same event loop, or
 * (`--clients-in-bench`) in the bench process, as the first version of this bench ran them.
 */
import { fork } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { fileURLToPath } from 'node:url'
import WebSocket from 'ws'

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

export function openWs(url: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url)
    ws.once('open', () => resolve(ws))
    ws.once('error', reject)
    ws.once('unexpected-response', (_q, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)))
  })
}

export interface ClientFigures {
  rtts: number[]
  bytes: number
  closedEarly: number
}

export interface Clients {
  /** Forgets what was measured so far (the warm-up). */
  reset(): void
  /** Stops the loops, closes the connections; what was measured since the reset. */
  stop(): Promise<ClientFigures>
}

/** Opens `urls.length` connections, `perRound` at a time, and starts their loops. */
export async function interactiveClients(urls: string[], perRound: number): Promise<Clients> {
  // Opened one per container at a time: the test image's echo service (busybox nc) resets many
  // connections that reach it in a burst, whoever opens them.
  const sockets: WebSocket[] = []
  for (let i = 0; i < urls.length; i += perRound)
    sockets.push(...(await Promise.all(urls.slice(i, i + perRound).map(openWs))))
  let running = true
  const rtts: number[] = []
  let bytes = 0
  // A connection that closes stops its loop (and is reported) instead of waiting forever.
  let closedEarly = 0
  const loops = sockets.map(async (ws) => {
    const chunk = randomBytes(4096)
    while (running) {
      const t0 = performance.now()
      const echoed = await new Promise<boolean>((resolve) => {
        let got = 0
        const closed = () => resolve(false)
        const on = (m: Buffer) => {
          got += m.length
          if (got >= chunk.length) {
            ws.off('message', on)
            ws.off('close', closed)
            resolve(true)
          }
        }
        ws.on('message', on)
        ws.once('close', closed)
        ws.send(chunk)
      })
      if (!echoed) {
        closedEarly++
        return
      }
      rtts.push(performance.now() - t0)
      bytes += chunk.length * 2
      await sleep(50)
    }
  })
  return {
    reset() {
      rtts.length = 0
      bytes = 0
    },
    async stop() {
      running = false
      await Promise.all(loops)
      for (const ws of sockets) ws.close()
      return { rtts, bytes, closedEarly }
    },
  }
}

type Message = { t: 'open'; urls: string[]; perRound: number } | { t: 'reset' } | { t: 'stop' }
type Reply = { t: 'ready' } | ({ t: 'done' } & ClientFigures)

/** The same clients in a process of their own (this file, forked), driven over IPC. */
export async function clientsApart(urls: string[], perRound: number): Promise<Clients> {
  const child = fork(fileURLToPath(import.meta.url), ['--clients'], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  const next = () =>
    new Promise<Reply>((resolve, reject) => {
      child.once('message', (m: Reply) => resolve(m))
      child.once('exit', (code) => reject(new Error(`the clients' process exited with ${code}`)))
    })
  const ready = next()
  child.send({ t: 'open', urls, perRound } satisfies Message)
  await ready
  return {
    reset: () => child.send({ t: 'reset' } satisfies Message),
    async stop() {
      const done = next()
      child.send({ t: 'stop' } satisfies Message)
      const { t: _, ...figures } = (await done) as Extract<Reply, { t: 'done' }>
      return figures
    },
  }
}

if (process.argv[2] === '--clients' && process.send) {
  let clients: Clients | null = null
  const reply = (m: Reply, then: () => void = () => {}) => process.send?.(m, undefined, {}, then)
  process.on('message', async (m: Message) => {
    if (m.t === 'open') {
      clients = await interactiveClients(m.urls, m.perRound)
      reply({ t: 'ready' })
    } else if (m.t === 'reset') clients?.reset()
    else if (m.t === 'stop' && clients) {
      const figures = await clients.stop()
      reply({ t: 'done', ...figures }, () => process.exit(0))
    }
  })
}
