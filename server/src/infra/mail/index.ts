export interface MailMessage {
  to: string
  subject: string
  text: string
  html: string
}

/** Outgoing mail. `enabled` is false when no SMTP server is configured. */
export interface Mailer {
  readonly enabled: boolean
  send(message: MailMessage): Promise<void>
  close(): Promise<void>
}
