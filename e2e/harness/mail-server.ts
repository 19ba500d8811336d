import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { type AddressObject, simpleParser } from 'mailparser'
import { SMTPServer } from 'smtp-server'

/** One received message, as the tests see it (JSON over the mailbox endpoint). */
export interface Mail {
  /** Arrival order, from 1. */
  id: number
  /** Lower-cased recipient addresses. */
  to: string[]
  from: string
  subject: string
  text: string
  html: string
  /** Every distinct http(s) link in the HTML and the text part, in order of appearance. */
  links: string[]
  /** ISO time of arrival. */
  receivedAt: string
}

const addresses = (value: AddressObject | AddressObject[] | undefined) =>
  (Array.isArray(value) ? value : value ? [value] : [])
    .flatMap((a) => a.value)
    .map((a) => a.address?.toLowerCase() ?? '')
    .filter(Boolean)

const decodeEntities = (s: string) =>
  s
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')

/** The links of a message: `href`s of the HTML part first, then bare URLs of both parts. */
export function extractLinks(html: string, text: string): string[] {
  const found: string[] = []
  for (const m of html.matchAll(/href\s*=\s*["']([^"']+)["']/gi)) found.push(decodeEntities(m[1]!))
  for (const m of `${text}\n${html}`.matchAll(/https?:\/\/[^\s"'<>)\]]+/g)) found.push(decodeEntities(m[0]))
  return [...new Set(found.filter((l) => /^https?:\/\//i.test(l)))]
}

/**
 * A real SMTP listener on a free local port that keeps every message, and a tiny HTTP endpoint on
 * another free port that serves them: `GET /messages` answers the whole inbox as JSON.
 * Both live in the Playwright runner process; the tests (in worker processes) poll the endpoint.
 */
export async function startMailServer() {
  const inbox: Mail[] = []
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    // Do not wait long for the server's pooled connections when closing.
    closeTimeout: 1000,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          const html = typeof parsed.html === 'string' ? parsed.html : ''
          const text = parsed.text ?? ''
          inbox.push({
            id: inbox.length + 1,
            to: addresses(parsed.to),
            from: addresses(parsed.from)[0] ?? '',
            subject: parsed.subject ?? '',
            text,
            html,
            links: extractLinks(html, text),
            receivedAt: new Date().toISOString(),
          })
          callback()
        })
        .catch(callback)
    },
  })
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve))
  const smtpPort = (smtp.server.address() as AddressInfo).port

  const api = http.createServer((req, res) => {
    if (req.method === 'GET' && req.url?.split('?')[0] === '/messages') {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify(inbox))
    } else {
      res.writeHead(404).end()
    }
  })
  await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve))
  const httpPort = (api.address() as AddressInfo).port

  return {
    smtpPort,
    url: `http://127.0.0.1:${httpPort}`,
    inbox,
    async close() {
      api.closeAllConnections()
      await Promise.all([
        new Promise<void>((resolve) => api.close(() => resolve())),
        new Promise<void>((resolve) => smtp.close(() => resolve())),
      ])
    },
  }
}
export type MailServer = Awaited<ReturnType<typeof startMailServer>>
