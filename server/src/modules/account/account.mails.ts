import type { MailMessage } from '../../infra/mail/index.ts'

export type MailKind = 'confirm' | 'reset' | 'mail'

const texts: Record<MailKind, { subject: string; intro: string; button: string }> = {
  confirm: {
    subject: 'Confirm your e-mail address',
    intro: 'Welcome! Confirm your e-mail address to activate your account.',
    button: 'Confirm e-mail address',
  },
  reset: {
    subject: 'Reset your password',
    intro: 'Someone (hopefully you) asked to reset the password of your account.',
    button: 'Choose a new password',
  },
  mail: {
    subject: 'Confirm your new e-mail address',
    intro: 'Confirm this address to make it the e-mail address of your account.',
    button: 'Confirm new address',
  },
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)

/** The mail for one account flow, as plain text and simple HTML with the same content. */
export function accountMail(
  kind: MailKind,
  opts: { to: string; userName: string; url: string; platform: string },
): MailMessage {
  const t = texts[kind]
  const footer = `This link works once and expires in 3 hours. If you did not ask for it, ignore this mail.`
  const text = [
    `Hello ${opts.userName},`,
    '',
    t.intro,
    '',
    `${t.button}: ${opts.url}`,
    '',
    footer,
    '',
    `— ${opts.platform}`,
  ].join('\n')
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5;max-width:560px;margin:auto;padding:24px">
<p>Hello ${escapeHtml(opts.userName)},</p>
<p>${escapeHtml(t.intro)}</p>
<p><a href="${escapeHtml(opts.url)}" style="display:inline-block;padding:10px 18px;background:#2f6fde;color:#fff;border-radius:6px;text-decoration:none">${escapeHtml(t.button)}</a></p>
<p style="font-size:13px;color:#555">Or open this address: ${escapeHtml(opts.url)}</p>
<p style="font-size:13px;color:#555">${escapeHtml(footer)}</p>
<p>— ${escapeHtml(opts.platform)}</p>
</body></html>`
  return { to: opts.to, subject: `${t.subject} - ${opts.platform}`, text, html }
}

const pathOf: Record<MailKind, string> = { confirm: 'verify', reset: 'reset', mail: 'confirm' }

/** `/account/<page>?token=<b64>&email=<b64>`: the values the web client posts back unchanged. */
export function accountLink(base: string, kind: MailKind, token: string, email: string): string {
  const b64 = (s: string) => encodeURIComponent(Buffer.from(s, 'utf8').toString('base64'))
  return `${base}/account/${pathOf[kind]}?token=${b64(token)}&email=${b64(email)}`
}

/** Reads a base64 value from a mailed link; null when it is not base64 of UTF-8 text. */
export function decodeLinkValue(value: string): string | null {
  const normalised = value.trim().replace(/ /g, '+')
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(normalised) || normalised.length > 1024) return null
  const text = Buffer.from(normalised, 'base64').toString('utf8')
  return text && !text.includes('\uFFFD') ? text : null
}
