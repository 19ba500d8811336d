/**
 * The SignalR JSON hub protocol, version 1 (api-contract §4): JSON records each ended by the
 * record separator 0x1e, a handshake, then typed messages. Only what a server that pushes and
 * accepts no calls needs.
 */
export const RS = '\x1e'

export const MessageType = {
  Invocation: 1,
  StreamItem: 2,
  Completion: 3,
  StreamInvocation: 4,
  CancelInvocation: 5,
  Ping: 6,
  Close: 7,
} as const

/** The handshake answer: an empty object, or the reason the handshake failed. */
export const handshakeReply = (error?: string) => `${JSON.stringify(error ? { error } : {})}${RS}`

export const PING_FRAME = `{"type":6}${RS}`

/** A push to the client: `target` is the method its handlers listen to. */
export const invocationFrame = (target: string, args: unknown[]) =>
  `${JSON.stringify({ type: MessageType.Invocation, target, arguments: args })}${RS}`

/** Ends the connection; without `allowReconnect` an automatic-reconnecting client stops. */
export const closeFrame = (error?: string, allowReconnect?: boolean) =>
  `${JSON.stringify({ type: MessageType.Close, ...(error ? { error } : {}), ...(allowReconnect === undefined ? {} : { allowReconnect }) })}${RS}`

export const completionErrorFrame = (invocationId: string, error: string) =>
  `${JSON.stringify({ type: MessageType.Completion, invocationId, error })}${RS}`

/**
 * Splits incoming text into complete records; whatever follows the last separator is kept for
 * the next frame (a record may arrive in pieces).
 */
export function splitRecords(pending: string, incoming: string): { records: string[]; rest: string } {
  const parts = (pending + incoming).split(RS)
  const rest = parts.pop() ?? ''
  return { records: parts, rest }
}

/** Hub payload dates are ISO-8601 with an explicit offset, as upstream writes them. */
export const isoTime = (ms: number) => new Date(ms).toISOString().replace('Z', '+00:00')
