import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { Empty, errors } from '../../http/schema.ts'
import {
  AccountPolicy,
  ConfigEditModel,
  ContainerPolicy,
  GlobalConfig,
} from '../settings/settings.schemas.ts'

/** Admin — platform settings (api-contract §2.2, `/api/admin/config`). */
export const adminConfigRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { settings, audit } = app.deps.services

  app.get(
    '/config',
    {
      config: { auth: 'admin' },
      schema: {
        summary: 'All platform settings',
        tags: ['Admin'],
        response: {
          200: Type.Object({
            accountPolicy: AccountPolicy,
            globalConfig: GlobalConfig,
            containerPolicy: ContainerPolicy,
          }),
          ...errors(401, 403),
        },
      },
    },
    async () => {
      await settings.reload()
      return settings.get()
    },
  )

  app.put(
    '/config',
    {
      config: { auth: 'admin' },
      schema: {
        summary: 'Replace the given settings sections',
        tags: ['Admin'],
        body: ConfigEditModel,
        response: { 200: Empty, ...errors(401, 403) },
      },
    },
    async (request, reply) => {
      const { accountPolicy, globalConfig, containerPolicy } = request.body
      if (accountPolicy) await settings.save('accountPolicy', accountPolicy)
      if (globalConfig) {
        // The logo is managed by its own upload route; a settings save never moves it.
        const { logoHash, faviconHash } = settings.get().globalConfig
        await settings.save('globalConfig', {
          ...globalConfig,
          customTheme: globalConfig.customTheme || null,
          logoHash,
          faviconHash,
        })
      }
      if (containerPolicy) await settings.save('containerPolicy', containerPolicy)
      audit.action(
        'admin',
        request.user!,
        request.ip,
        `${request.user!.userName} updated the platform settings`,
      )
      return reply.send()
    },
  )
}
