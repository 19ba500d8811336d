import { type FastifyReply, type FastifyRequest, LogController } from 'fastify'
import pino, { type Logger } from 'pino'
import type { Config } from '../config/index.ts'

/** What a log line looks like: a JSON object (for collectors) or a line a person reads. */
export type LogFormat = 'json' | 'pretty'

/** `LOG_FORMAT=auto` is pretty only on a terminal: a supervisor or a pipe gets JSON. */
export function resolveLogFormat(setting: Config['logFormat'], stdoutIsTTY: boolean): LogFormat {
  if (setting === 'auto') return stdoutIsTTY ? 'pretty' : 'json'
  return setting
}

interface Sink {
  write(text: string): unknown
}

/**
 * The process logger. JSON goes through pino's own fast destination, as before; pretty lines
 * are formatted here (pino-pretty would be a dozen dependencies for a few lines of code).
 */
export function createLogger(
  level: string,
  format: LogFormat,
  out: Sink & { isTTY?: boolean } = process.stdout,
): Logger {
  if (format === 'json') return pino({ level })
  const color = !!out.isTTY && !process.env.NO_COLOR
  return pino({ level, base: undefined }, { write: (line: string) => out.write(prettyLine(line, color)) })
}

/**
 * Writes text as is (not a log entry) to the logger's own stream, after every line logged so
 * far: pino may still hold earlier lines in its buffer, and a separate write to stdout would
 * overtake them.
 */
export function writeRaw(logger: Logger, text: string): void {
  const stream = (logger as unknown as Record<symbol, { write(s: string): unknown }>)[pino.symbols.streamSym]
  if (stream) stream.write(text)
  else process.stdout.write(text)
}

const LEVELS: Record<number, [label: string, ansi: number]> = {
  10: ['TRACE', 90],
  20: ['DEBUG', 90],
  30: ['INFO ', 32],
  40: ['WARN ', 33],
  50: ['ERROR', 31],
  60: ['FATAL', 35],
}
/** Fields every line has, or that only help a machine. */
const HIDDEN = new Set(['time', 'level', 'msg', 'err', 'pid', 'hostname', 'reqId'])

/** One pino JSON line as `12:03:04 INFO  message  key=value`, with an error's stack below. */
export function prettyLine(json: string, color = false): string {
  let entry: Record<string, unknown>
  try {
    entry = JSON.parse(json)
  } catch {
    return json
  }
  const paint = (code: number, text: string) => (color ? `\x1b[${code}m${text}\x1b[0m` : text)
  const [label, ansi] = LEVELS[entry.level as number] ?? [String(entry.level), 0]
  const clock = new Date(typeof entry.time === 'number' ? entry.time : Date.now()).toTimeString().slice(0, 8)
  const fields = Object.entries(entry)
    .filter(([key]) => !HIDDEN.has(key))
    .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(' ')
  let line = `${paint(2, clock)} ${paint(ansi, label)} ${entry.msg ?? ''}`
  if (fields) line += `  ${paint(2, fields)}`
  const err = entry.err as { stack?: string; message?: string } | undefined
  const detail = err?.stack ?? err?.message
  if (detail) line += `\n${detail.replace(/^/gm, '    ')}`
  return `${line}\n`
}

/**
 * No line per request at the default level (a busy contest would print thousands a second):
 * at `debug`, one line for each finished request; failures are logged by the error handler.
 */
export class RequestLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (error) {
      reply.log.error({ err: error, url: request.url }, 'request errored')
      return
    }
    if (reply.log.level === 'debug' || reply.log.level === 'trace')
      reply.log.debug(
        `${request.method} ${request.url} ${reply.statusCode} ${Math.round(reply.elapsedTime)} ms`,
      )
  }
}
