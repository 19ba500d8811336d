import type { Transporter } from 'nodemailer'
import type { SmtpConfig } from '../../config/index.ts'
import type { Mailer } from './index.ts'

export function createSmtpMailer(config: SmtpConfig): Mailer {
  // nodemailer loads with the first mail, not at start-up (a fifth of a second, and memory).
  let transport: Promise<Transporter> | undefined
  const connect = async () => {
    const { default: nodemailer } = await import('nodemailer')
    return nodemailer.createTransport({
      host: config.host,
      port: config.port,
      secure: config.secure,
      auth: config.user ? { user: config.user, pass: config.password ?? '' } : undefined,
      tls: { rejectUnauthorized: config.rejectUnauthorized },
      pool: true,
      maxConnections: 2,
    })
  }
  return {
    enabled: true,
    async send(message) {
      transport ??= connect()
      await (await transport).sendMail({ from: config.from, ...message })
    },
    async close() {
      ;(await transport)?.close()
    },
  }
}

/** Used when no SMTP server is configured: flows that need mail must say so, not pretend. */
export const noMailer: Mailer = {
  enabled: false,
  async send() {
    throw new Error('mail is not configured')
  },
  async close() {},
}
