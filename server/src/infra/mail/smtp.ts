import nodemailer from 'nodemailer'
import type { SmtpConfig } from '../../config/index.ts'
import type { Mailer } from './index.ts'

export function createSmtpMailer(config: SmtpConfig): Mailer {
  const transport = nodemailer.createTransport({
    host: config.host,
    port: config.port,
    secure: config.secure,
    auth: config.user ? { user: config.user, pass: config.password ?? '' } : undefined,
    tls: { rejectUnauthorized: config.rejectUnauthorized },
    pool: true,
    maxConnections: 2,
  })
  return {
    enabled: true,
    async send(message) {
      await transport.sendMail({ from: config.from, ...message })
    },
    async close() {
      transport.close()
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
