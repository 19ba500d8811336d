import { sql } from 'drizzle-orm'
import type { Db } from '../../db/index.ts'
import { isStrongPassword } from '../../engine/password.ts'
import { AppError, fail } from '../../http/errors.ts'
import type { SessionUser } from '../../http/types.ts'
import type { Mailer } from '../../infra/mail/index.ts'
import type { BlobService } from '../assets/blobs.service.ts'
import { prepareImage } from '../assets/images.ts'
import type { CaptchaService } from '../info/captcha.service.ts'
import type { AuditService } from '../logs/audit.service.ts'
import type { SettingsService } from '../settings/settings.service.ts'
import { accountLink, accountMail, decodeLinkValue, type MailKind } from './account.mails.ts'
import type { LoginThrottle } from './login-throttle.ts'
import { decoyHash, hashPassword, verifyPassword } from './password-hash.ts'
import type { SessionService } from './sessions.service.ts'
import type { TokenService } from './tokens.service.ts'
import {
  findUserByEmail,
  findUserById,
  findUserByName,
  hasAdmin,
  insertUser,
  type UserRow,
  updateUser,
} from './users.queries.ts'

export type RegisterStatus = 'LoggedIn' | 'AdminConfirmationRequired' | 'EmailConfirmationRequired'
/** Where a request came from: its address, and the base URL for links mailed in reply. */
export interface Origin {
  ip: string
  /** Null when the request names a host through a proxy the server does not trust. */
  linkBase: string | null
}
export interface NewSession {
  token: string
  expiresAt: Date
}

export function createAccountService(deps: {
  db: Db
  settings: SettingsService
  sessions: SessionService
  tokens: TokenService
  blobs: BlobService
  captcha: CaptchaService
  mailer: Mailer
  audit: AuditService
  /** Slows password guessing per account (login-throttle.ts). */
  throttle: LoginThrottle
  /** After a user's password changed (the first admin's password file goes then). */
  onPasswordChanged?: (userId: string) => Promise<void>
}) {
  const { db, settings, sessions, tokens, blobs, captcha, mailer, audit, throttle } = deps

  // Visits are written together once a second, one statement for everybody who came by, instead
  // of an update per player on the flag path. A visit not yet written when the process stops is
  // lost: the time shown is at most a second older.
  const visits = new Map<string, { ip: string; at: string }>()
  let visitsWritten: Promise<void> | null = null
  async function writeVisits() {
    visitsWritten = null
    const batch = [...visits].map(([id, v]) => ({ id, ...v }))
    visits.clear()
    await db.execute(sql`
      update users u set last_visited_utc = v.at, ip = v.ip
      from jsonb_to_recordset(${JSON.stringify(batch)}::jsonb) as v(id uuid, ip text, at timestamptz)
      where u.id = v.id`)
  }
  const policy = () => settings.get().accountPolicy
  const platform = () => `${settings.get().globalConfig.title || 'Pennant'}::CTF`

  function checkDomain(email: string) {
    const list = policy()
      .emailDomainList.split(',')
      .map((d) => d.trim())
      .filter(Boolean)
    const domain = email.slice(email.indexOf('@') + 1)
    if (list.length && !list.includes(domain))
      throw fail('Account_AvailableEmailDomain', { params: [list.join(', ')] })
  }

  async function requireCaptcha(answer: string | null | undefined, ip: string) {
    if (policy().useCaptcha && !(await captcha.verify(answer ?? '', ip)))
      throw fail('Account_TokenValidationFailed')
  }

  function requireMail(origin: Origin) {
    // A reset link pointing at a host an attacker chose would hand them the token.
    if (!origin.linkBase) throw fail('Account_LinkHostUntrusted')
    if (!mailer.enabled) throw fail('Account_MailNotConfigured')
  }

  async function sendLink(kind: MailKind, user: UserRow, to: string, origin: Origin) {
    const token = await tokens.issue(user.id, kind, to)
    const url = accountLink(origin.linkBase ?? '', kind, token, to)
    try {
      await mailer.send(accountMail(kind, { to, userName: user.userName, url, platform: platform() }))
    } catch (err) {
      audit.write({
        level: 'Error',
        logger: 'mail',
        message: `Mail to ${to} failed: ${String(err)}`,
        status: 'Failed',
      })
      throw fail('Account_EmailSendFailed')
    }
  }

  function requireStrong(password: string) {
    if (!isStrongPassword(password)) throw fail('Account_PasswordWeak')
  }

  async function signIn(user: UserRow, ip: string): Promise<NewSession> {
    const now = new Date()
    await updateUser(db, user.id, { lastSignedInUtc: now, lastVisitedUtc: now, ip })
    return sessions.create(user.id)
  }

  return {
    async register(
      input: { userName: string; password: string; email: string; challenge?: string | null },
      origin: Origin,
    ): Promise<{ status: RegisterStatus; session?: NewSession }> {
      const p = policy()
      if (!p.allowRegister) throw fail('Account_RegisterNotEnabled')
      await requireCaptcha(input.challenge, origin.ip)
      checkDomain(input.email)
      requireStrong(input.password)
      const mailNeeded = !p.activeOnRegister && p.emailConfirmationRequired
      if (mailNeeded) requireMail(origin)

      let user = await findUserByEmail(db, input.email)
      if (user) {
        // An unconfirmed account is continued only by whoever knows its name and password
        // (decisions.md item 6): re-registering never hands someone else's account over.
        const same =
          !user.emailConfirmed &&
          user.userName.toLowerCase() === input.userName.trim().toLowerCase() &&
          (await verifyPassword(user.passwordHash, input.password))
        if (!same) throw fail('Account_UserExisting')
      } else {
        const now = new Date()
        user = await insertUser(db, {
          id: crypto.randomUUID(),
          userName: input.userName.trim(),
          email: input.email.trim(),
          passwordHash: await hashPassword(input.password),
          ip: origin.ip,
          lastVisitedUtc: now,
          registerTimeUtc: now,
        })
        audit.write({
          logger: 'account',
          message: `Registered ${user.userName}`,
          status: 'Success',
          userName: user.userName,
          ip: origin.ip,
        })
      }

      if (p.activeOnRegister) {
        await updateUser(db, user.id, { emailConfirmed: true })
        return { status: 'LoggedIn', session: await signIn(user, origin.ip) }
      }
      if (!p.emailConfirmationRequired) return { status: 'AdminConfirmationRequired' }
      await sendLink('confirm', user, user.email, origin)
      return { status: 'EmailConfirmationRequired' }
    },

    async login(
      input: { userName: string; password: string; challenge?: string | null },
      origin: Origin,
    ): Promise<NewSession> {
      await requireCaptcha(input.challenge, origin.ip)
      const user = (await findUserByName(db, input.userName)) ?? (await findUserByEmail(db, input.userName))
      if (!user) {
        await verifyPassword(await decoyHash(), input.password)
        throw fail('Account_IncorrectUserNameOrPassword')
      }
      await throttle.check(user.id, origin.ip)
      if (!(await verifyPassword(user.passwordHash, input.password))) {
        await throttle.failed(user.id, origin.ip)
        audit.write({
          level: 'Warning',
          logger: 'account',
          message: `Wrong password for ${user.userName}`,
          status: 'Denied',
          userName: user.userName,
          ip: origin.ip,
        })
        throw fail('Account_IncorrectUserNameOrPassword')
      }
      await throttle.succeeded(user.id, origin.ip)
      if (user.role === 0) throw fail('Account_UserDisabled')
      if (!user.emailConfirmed) throw fail('Account_EmailNotConfirmedForLogin')
      audit.write({
        logger: 'account',
        message: `${user.userName} signed in`,
        status: 'Success',
        userName: user.userName,
        ip: origin.ip,
      })
      return signIn(user, origin.ip)
    },

    logout: (actor: SessionUser) => sessions.destroy(actor.sessionId),

    async profile(userId: string): Promise<UserRow> {
      const user = await findUserById(db, userId)
      if (!user) throw fail('Auth_LoginRequired')
      return user
    },

    async update(
      actor: SessionUser,
      input: {
        userName?: string | null
        bio?: string | null
        phone?: string | null
        realName?: string | null
        stdNumber?: string | null
      },
    ): Promise<void> {
      const patch: Parameters<typeof updateUser>[2] = {}
      if (input.userName != null && input.userName.trim() !== actor.userName)
        patch.userName = input.userName.trim()
      if (input.bio != null) patch.bio = input.bio
      if (input.phone != null) patch.phone = input.phone === '' ? null : input.phone
      if (input.realName != null) patch.realName = input.realName
      if (input.stdNumber != null) patch.stdNumber = input.stdNumber
      if (Object.keys(patch).length) await updateUser(db, actor.id, patch)
      if (patch.userName) sessions.forgetUser(actor.id)
    },

    async setAvatar(actor: SessionUser, bytes: Buffer): Promise<string> {
      const image = await prepareImage(bytes, { width: 300 })
      const file = await blobs.store(image.bytes, `avatar.${image.ext}`)
      const before = await findUserById(db, actor.id)
      await updateUser(db, actor.id, { avatarHash: file.hash })
      if (before?.avatarHash) await blobs.release(before.avatarHash)
      return `/assets/${file.hash}/avatar.${image.ext}`
    },

    async changePassword(actor: SessionUser, input: { old: string; new: string }): Promise<void> {
      const user = await findUserById(db, actor.id)
      if (!user || !(await verifyPassword(user.passwordHash, input.old))) throw fail('Account_WrongPassword')
      requireStrong(input.new)
      await updateUser(db, user.id, {
        passwordHash: await hashPassword(input.new),
        passwordChangeRequired: false,
      })
      // A changed password voids pending reset links and every other signed-in device.
      await tokens.revokeAll(user.id, 'reset')
      await sessions.destroyAllFor(user.id, actor.sessionId)
      await deps.onPasswordChanged?.(user.id)
      audit.write({
        logger: 'account',
        message: `${user.userName} changed their password`,
        status: 'Success',
        userName: user.userName,
      })
    },

    async changeEmail(actor: SessionUser, newMail: string, origin: Origin): Promise<void> {
      if (await findUserByEmail(db, newMail)) throw fail('Account_EmailUsed')
      checkDomain(newMail)
      if (!policy().emailConfirmationRequired) throw fail('Account_ChangeEmailFromAdmin', { data: false })
      requireMail(origin)
      const user = await findUserById(db, actor.id)
      if (!user) throw fail('Auth_LoginRequired')
      await sendLink('mail', user, newMail.trim(), origin)
    },

    async confirmEmailChange(actor: SessionUser, input: { token: string; email: string }): Promise<void> {
      const token = decodeLinkValue(input.token)
      const email = decodeLinkValue(input.email)
      const userId = token && email ? await tokens.consume(token, 'mail', email) : null
      if (!userId || userId !== actor.id || !email) throw fail('Account_InvalidEmail')
      await updateUser(db, actor.id, { email, emailConfirmed: true })
    },

    async recover(input: { email: string; challenge?: string | null }, origin: Origin): Promise<void> {
      await requireCaptcha(input.challenge, origin.ip)
      const user = await findUserByEmail(db, input.email)
      if (!user) throw fail('Account_UserNotExist')
      if (!user.emailConfirmed) throw fail('Account_EmailNotConfirmed')
      if (!policy().emailConfirmationRequired) throw fail('Account_ResetPasswordFromAdmin')
      requireMail(origin)
      await sendLink('reset', user, user.email, origin)
    },

    async resetPassword(
      input: { password: string; email: string; rToken: string },
      origin: Origin,
    ): Promise<void> {
      const email = decodeLinkValue(input.email)
      const user = email ? await findUserByEmail(db, email) : undefined
      if (!user || !email) throw fail('Account_InvalidEmail')
      requireStrong(input.password)
      const token = decodeLinkValue(input.rToken)
      const userId = token ? await tokens.consume(token, 'reset', email) : null
      if (userId !== user.id) throw fail('Account_InvalidToken')
      await updateUser(db, user.id, {
        passwordHash: await hashPassword(input.password),
        passwordChangeRequired: false,
        lastVisitedUtc: new Date(),
        ip: origin.ip,
      })
      await tokens.revokeAll(user.id, 'reset')
      await sessions.destroyAllFor(user.id)
      await deps.onPasswordChanged?.(user.id)
      audit.write({
        logger: 'account',
        message: `${user.userName} reset their password`,
        status: 'Success',
        userName: user.userName,
        ip: origin.ip,
      })
    },

    async verifyEmail(input: { token: string; email: string }, origin: Origin): Promise<NewSession> {
      const email = decodeLinkValue(input.email)
      const user = email ? await findUserByEmail(db, email) : undefined
      if (!user || !email || user.emailConfirmed) throw fail('Account_InvalidEmail')
      const token = decodeLinkValue(input.token)
      const userId = token ? await tokens.consume(token, 'confirm', email) : null
      if (userId !== user.id) throw fail('Account_EmailVerificationFailed')
      await updateUser(db, user.id, { emailConfirmed: true, registerTimeUtc: new Date() })
      return signIn(user, origin.ip)
    },

    /** Records a visit (at most every few seconds per user; see the auth hook), within a second. */
    touch(userId: string, ip: string): Promise<void> {
      visits.set(userId, { ip: ip.slice(0, 40), at: new Date().toISOString() })
      visitsWritten ??= new Promise((resolve) => setTimeout(resolve, 1000).unref()).then(writeVisits)
      return visitsWritten
    },

    /** The bootstrap admin: created when none exists. Returns it when it made one. */
    async ensureAdmin(
      password: string | undefined,
      generate: () => string,
    ): Promise<{ id: string; userName: string; password: string } | null> {
      if (await hasAdmin(db)) return null
      const chosen = password ?? generate()
      const now = new Date()
      const id = crypto.randomUUID()
      try {
        await insertUser(db, {
          id,
          userName: 'Admin',
          email: 'admin@pennant.local',
          emailConfirmed: true,
          passwordHash: await hashPassword(chosen),
          role: 3,
          registerTimeUtc: now,
          // A password printed to a console is asked to be replaced at the first sign-in.
          passwordChangeRequired: password === undefined,
        })
      } catch (err) {
        // Another replica created it first.
        if (err instanceof AppError) return null
        throw err
      }
      return { id, userName: 'Admin', password: chosen }
    },
  }
}
export type AccountService = ReturnType<typeof createAccountService>
