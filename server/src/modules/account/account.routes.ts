import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import { clearSessionCookie, setSessionCookie } from '../../http/auth.ts'
import { sendScalar } from '../../http/reply.ts'
import { Empty, ErrorBody, errors, ResponseWithData } from '../../http/schema.ts'
import { readUpload } from '../../http/upload.ts'
import { MAX_IMAGE_BYTES } from '../assets/images.ts'
import { presentOwnProfile } from './account.presenters.ts'
import {
  AccountVerifyModel,
  LoginModel,
  MailChangeModel,
  OwnProfileModel,
  PasswordChangeModel,
  PasswordResetModel,
  ProfileUpdateModel,
  RecoveryModel,
  RegisterModel,
  RegisterStatus,
} from './account.schemas.ts'
import type { NewSession, Origin } from './account.service.ts'

/** Account — `/api/account/*` (api-contract §2.1). */
export const accountRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { account } = app.deps.services
  const { publicUrl, publicHosts, localUrl } = app.deps.config
  // Mailed links carry a reset or confirmation token: their host is never one the request chose
  // (Host or X-Forwarded-Host, forgeable), unless PUBLIC_HOSTS lists it.
  const origin = (request: FastifyRequest): Origin => {
    const named = request.host.toLowerCase()
    const allowed = publicHosts.includes(named)
    return { ip: request.ip, linkBase: publicUrl ?? (allowed ? `${request.protocol}://${named}` : localUrl) }
  }
  const startSession = (request: FastifyRequest, reply: FastifyReply, session: NewSession) =>
    setSessionCookie(request, reply, session.token, session.expiresAt)

  app.post(
    '/register',
    {
      config: { rateLimit: 'Register' },
      schema: {
        summary: 'Create an account',
        tags: ['Account'],
        body: RegisterModel,
        response: { 200: ResponseWithData(RegisterStatus), ...errors(429) },
      },
    },
    async (request, reply) => {
      const result = await account.register(request.body, origin(request))
      if (result.session) startSession(request, reply, result.session)
      const titles = {
        LoggedIn: 'Account_RegisteredLoggedIn',
        AdminConfirmationRequired: 'Account_RegisteredAdminConfirmation',
        EmailConfirmationRequired: 'Account_RegisteredEmailConfirmation',
      } as const
      return { title: request.localTitle(titles[result.status]), data: result.status, status: 200 }
    },
  )

  app.post(
    '/recovery',
    {
      config: { rateLimit: 'Register' },
      schema: {
        summary: 'Mail a password-reset link',
        tags: ['Account'],
        body: RecoveryModel,
        response: { 200: ErrorBody, ...errors(404, 429) },
      },
    },
    async (request) => {
      await account.recover(request.body, origin(request))
      return { title: request.localTitle('Account_RecoveryMailSent'), status: 200 }
    },
  )

  app.post(
    '/passwordreset',
    {
      config: { rateLimit: 'Register' },
      schema: {
        summary: 'Set a new password with a mailed token',
        tags: ['Account'],
        body: PasswordResetModel,
        response: { 200: Empty, ...errors(429) },
      },
    },
    async (request, reply) => {
      await account.resetPassword(request.body, origin(request))
      return reply.send()
    },
  )

  app.post(
    '/verify',
    {
      schema: {
        summary: 'Confirm the e-mail address and sign in',
        tags: ['Account'],
        body: AccountVerifyModel,
        response: { 200: Empty, ...errors(401) },
      },
    },
    async (request, reply) => {
      startSession(request, reply, await account.verifyEmail(request.body, origin(request)))
      return reply.send()
    },
  )

  app.post(
    '/login',
    {
      schema: {
        summary: 'Sign in',
        tags: ['Account'],
        body: LoginModel,
        response: { 200: Empty, ...errors(401) },
      },
    },
    async (request, reply) => {
      const session = await account.login(request.body, origin(request))
      // Signing in replaces whatever session the browser had.
      if (request.user) await account.logout(request.user)
      startSession(request, reply, session)
      return reply.send()
    },
  )

  app.post(
    '/logout',
    {
      config: { auth: 'user' },
      schema: { summary: 'Sign out', tags: ['Account'], response: { 200: Empty, ...errors(401, 403) } },
    },
    async (request, reply) => {
      await account.logout(request.user!)
      clearSessionCookie(request, reply)
      return reply.send()
    },
  )

  app.put(
    '/update',
    {
      config: { auth: 'user' },
      schema: {
        summary: 'Edit the profile',
        tags: ['Account'],
        body: ProfileUpdateModel,
        response: { 200: Empty, ...errors(401, 403) },
      },
    },
    async (request, reply) => {
      await account.update(request.user!, request.body)
      return reply.send()
    },
  )

  app.put(
    '/changepassword',
    {
      config: { auth: 'user' },
      schema: {
        summary: 'Change the password',
        tags: ['Account'],
        body: PasswordChangeModel,
        response: { 200: Empty, ...errors(401, 403) },
      },
    },
    async (request, reply) => {
      await account.changePassword(request.user!, request.body)
      return reply.send()
    },
  )

  app.put(
    '/changeemail',
    {
      config: { auth: 'user', rateLimit: 'Register' },
      schema: {
        summary: 'Mail a confirmation link to a new address',
        tags: ['Account'],
        body: MailChangeModel,
        response: {
          200: ResponseWithData(Type.Boolean()),
          ...errors(401, 403, 429),
          400: Type.Object({
            title: Type.String(),
            data: Type.Optional(Type.Boolean()),
            status: Type.Integer(),
          }),
        },
      },
    },
    async (request) => {
      await account.changeEmail(request.user!, request.body.newMail, origin(request))
      return { title: request.localTitle('Account_EmailChangeMailSent'), data: true, status: 200 }
    },
  )

  app.post(
    '/mailchangeconfirm',
    {
      config: { auth: 'user' },
      schema: {
        summary: 'Apply an e-mail change from the mailed link',
        tags: ['Account'],
        body: AccountVerifyModel,
        response: { 200: Empty, ...errors(401, 403) },
      },
    },
    async (request, reply) => {
      await account.confirmEmailChange(request.user!, request.body)
      return reply.send()
    },
  )

  app.get(
    '/profile',
    {
      config: { auth: 'user' },
      schema: {
        summary: 'The caller’s profile',
        tags: ['Account'],
        response: { 200: OwnProfileModel, ...errors(401, 403) },
      },
    },
    async (request) => {
      return presentOwnProfile(await account.profile(request.user!.id))
    },
  )

  app.put(
    '/avatar',
    {
      config: { auth: 'user' },
      schema: {
        summary: 'Upload a new avatar (multipart field "file")',
        tags: ['Account'],
        consumes: ['multipart/form-data'],
        response: { 200: Type.String({ description: '/assets/<hash>/avatar.webp' }), ...errors(401, 403) },
      },
    },
    async (request, reply) => {
      const upload = await readUpload(request, MAX_IMAGE_BYTES)
      return sendScalar(reply, await account.setAvatar(request.user!, upload.bytes))
    },
  )
}
