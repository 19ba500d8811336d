import { useEffect, useRef, useState } from 'react'

/**
 * `live`: connected and admitted; `reconnecting`: the connection dropped and another attempt is
 * scheduled; `off`: the server refused us (or no hub wanted), so screens only poll.
 */
export type HubState = 'connecting' | 'live' | 'reconnecting' | 'off'

const RS = '\x1e'
const HANDSHAKE = `{"protocol":"json","version":1}${RS}`
const PING = `{"type":6}${RS}`
/** The server pings every 15 s; this long without a word means the connection is dead. */
const SILENCE_MS = 35_000
const PING_MS = 15_000

/** Delay before reconnect attempt `n` (0-based): 1 s doubling to 30 s, with jitter so a restarted
 * server is not met by every client at the same instant. */
export function reconnectDelay(n: number, random = Math.random): number {
  return Math.min(30_000, 1000 * 2 ** n) * (0.5 + random() / 2)
}

interface HubMessage {
  type?: number
  target?: string
  arguments?: unknown[]
  error?: string
  allowReconnect?: boolean
}

/** The records of one WebSocket message (SignalR JSON protocol: each ends with 0x1e). */
export function parseRecords(text: string): HubMessage[] {
  return text
    .split(RS)
    .filter(Boolean)
    .map((r) => JSON.parse(r) as HubMessage)
}

/**
 * Listens to a SignalR hub (`/hub/user?game=1`…) over a WebSocket, speaking the JSON protocol
 * itself: a push and a few pings are all these hubs do, which does not need the 13 KB official
 * client. `handlers` maps pushed method names to callbacks (the latest render's are used, so
 * passing a new object each render does not reconnect). Reconnects with backoff; the returned
 * state lets a screen show it and poll while not live.
 */
export function useHub(path: string | null, handlers: Record<string, (payload: never) => void>): HubState {
  const [state, setState] = useState<HubState>(path ? 'connecting' : 'off')
  const latest = useRef(handlers)
  latest.current = handlers

  useEffect(() => {
    if (!path || typeof WebSocket === 'undefined') {
      setState('off')
      return
    }
    let socket: WebSocket | null = null
    let retry: ReturnType<typeof setTimeout> | undefined
    let beat: ReturnType<typeof setInterval> | undefined
    let attempt = 0
    let stopped = false
    setState('connecting')

    const open = () => {
      const url = new URL(path, window.location.href)
      url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:'
      const ws = new WebSocket(url)
      socket = ws
      let shaken = false
      let refused = false
      let lastIn = Date.now()
      ws.onopen = () => ws.send(HANDSHAKE)
      ws.onmessage = (event) => {
        lastIn = Date.now()
        let messages: HubMessage[]
        try {
          messages = parseRecords(String(event.data))
        } catch {
          ws.close()
          return
        }
        for (const m of messages) {
          if (!shaken) {
            if (m.error) {
              refused = true
              ws.close()
              return
            }
            shaken = true
            attempt = 0
            setState('live')
            beat = setInterval(() => {
              if (Date.now() - lastIn > SILENCE_MS) ws.close()
              else ws.send(PING)
            }, PING_MS)
          } else if (m.type === 1 && m.target) {
            latest.current[m.target]?.((m.arguments?.[0] ?? null) as never)
          } else if (m.type === 7) {
            // Refused (wrong role, no such game): reconnecting would be refused again.
            if (m.allowReconnect === false) refused = true
            ws.close()
          }
        }
      }
      ws.onclose = () => {
        clearInterval(beat)
        if (stopped) return
        if (refused) {
          setState('off')
          return
        }
        setState('reconnecting')
        retry = setTimeout(open, reconnectDelay(attempt++))
      }
    }
    open()
    return () => {
      stopped = true
      clearTimeout(retry)
      clearInterval(beat)
      socket?.close()
    }
  }, [path])

  return state
}

/**
 * Whether a screen must read again: the hub is live once more after having been live before (a
 * dropped connection, or a server asking its clients to re-sync after it missed updates), so
 * what was pushed meanwhile was not heard. The first connection needs nothing: the screen has
 * just read. Returns [seen live so far, read again now].
 */
export function afterReconnect(seenLive: boolean, state: HubState): [boolean, boolean] {
  if (state !== 'live') return [seenLive, false]
  return [true, seenLive]
}

/** Calls `catchUp` each time the hub is live again after a drop (see `afterReconnect`). */
export function useCatchUp(state: HubState, catchUp: () => void) {
  const latest = useRef(catchUp)
  latest.current = catchUp
  const seenLive = useRef(false)
  useEffect(() => {
    const [seen, again] = afterReconnect(seenLive.current, state)
    seenLive.current = seen
    if (again) latest.current()
  }, [state])
}

/**
 * Collects pushed items and hands them over at most every `ms`, oldest first, so a burst of
 * pushes (thousands of submissions a second) renders once per interval, not once per item.
 */
export function useBatched<T>(flush: (items: T[]) => void, ms = 500): (item: T) => void {
  const latest = useRef(flush)
  latest.current = flush
  const buffer = useRef<T[]>([])
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)
  useEffect(() => () => clearTimeout(timer.current), [])
  const push = useRef((item: T) => {
    buffer.current.push(item)
    timer.current ??= setTimeout(() => {
      timer.current = undefined
      latest.current(buffer.current.splice(0))
    }, ms)
  })
  return push.current
}

/** Rows pushed live go on top of the first page, which keeps its length. */
export function prependRows<T>(rows: readonly T[] | undefined, fresh: readonly T[], pageSize: number): T[] {
  return [...[...fresh].reverse(), ...(rows ?? [])].slice(0, pageSize)
}

/** Hub payloads carry ISO dates; the REST lists (and our screens) use epoch milliseconds. */
export const epochOf = (time: unknown): number => (typeof time === 'number' ? time : Date.parse(String(time)))
