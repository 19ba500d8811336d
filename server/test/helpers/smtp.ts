import type { AddressInfo } from 'node:net'
import { type ParsedMail, simpleParser } from 'mailparser'
import { SMTPServer } from 'smtp-server'

/** A real SMTP listener on a free local port that keeps every message it receives. */
export async function startSmtp() {
  const inbox: ParsedMail[] = []
  const waiters: (() => void)[] = []
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          inbox.push(mail)
          for (const w of waiters.splice(0)) w()
          callback()
        })
        .catch(callback)
    },
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.server.address() as AddressInfo).port

  return {
    port,
    inbox,
    env: {
      SMTP_HOST: '127.0.0.1',
      SMTP_PORT: String(port),
      SMTP_FROM: 'Pennant <ctf@pennant.test>',
      SMTP_SECURE: 'false',
    },
    /** The next message sent to `to` (waits for it). */
    async mailTo(to: string, timeoutMs = 10_000): Promise<ParsedMail> {
      const deadline = Date.now() + timeoutMs
      for (;;) {
        const found = inbox.find((m) => JSON.stringify(m.to).includes(to))
        if (found) {
          inbox.splice(inbox.indexOf(found), 1)
          return found
        }
        if (Date.now() > deadline) throw new Error(`no mail to ${to}`)
        await new Promise<void>((resolve) => {
          waiters.push(resolve)
          setTimeout(resolve, 200)
        })
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

/** The token and e-mail values of the link in a mail, as the web page would read them. */
export function linkIn(mail: ParsedMail): { path: string; token: string; email: string } {
  const match = /https?:\/\/[^\s"<]+\/account\/(\w+)\?token=([^&\s"<]+)&email=([^\s"<]+)/.exec(
    mail.text ?? '',
  )
  if (!match) throw new Error(`no account link in: ${mail.text}`)
  return { path: match[1]!, token: decodeURIComponent(match[2]!), email: decodeURIComponent(match[3]!) }
}
