import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { hashTag, notModified } from '../../http/conditional.ts'
import { errors } from '../../http/schema.ts'
import { ClientConfig } from '../settings/settings.schemas.ts'
import { ClientCaptchaInfoModel, HashPowChallenge } from './info.schemas.ts'

const HEX_COLOUR = /^#[0-9a-fA-F]{6}$/

/** Info — client configuration and captcha (api-contract §2.7). */
export const infoRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { settings, captcha } = app.deps.services

  app.get(
    '/config',
    {
      schema: {
        summary: 'Client configuration',
        tags: ['Info'],
        response: { 200: ClientConfig, ...errors() },
      },
    },
    async (request, reply) => {
      const { globalConfig: g, containerPolicy: c } = settings.get()
      const body = {
        title: g.title,
        slogan: g.slogan,
        footerInfo: g.footerInfo ?? null,
        // Only a valid colour reaches clients (seed §5).
        customTheme: g.customTheme && HEX_COLOUR.test(g.customTheme) ? g.customTheme : null,
        apiPublicKey: null,
        logoUrl: g.logoHash ? `/assets/${g.logoHash}/logo` : null,
        portMapping: app.deps.config.containers.portMapping,
        defaultLifetime: c.defaultLifetime,
        extensionDuration: c.extensionDuration,
        renewalWindow: c.renewalWindow,
      }
      if (notModified(request, reply, `cfg-${hashTag(body)}`, settings.changedAt())) return reply
      return body
    },
  )

  app.get(
    '/captcha',
    {
      schema: {
        summary: 'Which captcha the client must solve',
        tags: ['Info'],
        response: { 200: ClientCaptchaInfoModel, ...errors() },
      },
    },
    async (request, reply) => {
      const body = captcha.info()
      if (notModified(request, reply, `cap-${hashTag(body)}`, settings.changedAt())) return reply
      return body
    },
  )

  app.get(
    '/captcha/powchallenge',
    {
      config: { rateLimit: 'PowChallenge' },
      schema: {
        summary: 'A new proof-of-work challenge',
        tags: ['Info'],
        response: { 200: HashPowChallenge, ...errors(404, 429) },
      },
    },
    async (_request, reply) => {
      reply.header('Cache-Control', 'no-store')
      return captcha.issuePow()
    },
  )
}
