import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { fail } from '../../http/errors.ts'
import { ArrayResponse, Empty, errors, IdParams, PageQuery } from '../../http/schema.ts'
import {
  WebhookDelivery,
  WebhookInfo,
  WebhookModel,
  WebhookSaved,
  WebhookUpdateModel,
} from './webhooks.schemas.ts'

const admin = { auth: 'admin' } as const
const tags = ['Webhooks']
const DeliveryParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }) })

/**
 * Webhooks — `/api/ext/admin/webhooks` (our addition, admins only). While the `webhooks` switch
 * is off every route answers 404 `Webhook_Off` (after the role check) and nothing is queued or sent.
 */
export const webhookRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { webhooks, webhookQueue, settings, audit } = app.deps.services

  // After the global auth hook (registered earlier), before the body is read or validated.
  app.addHook('onRequest', async () => {
    if (!settings.isOn('webhooks')) throw fail('Webhook_Off')
  })

  const did = (request: { user: { userName: string } | null; ip: string }, what: string) =>
    audit.action('webhooks', request.user!, request.ip, `${request.user!.userName} ${what}`)

  app.get(
    '/',
    {
      config: admin,
      schema: {
        summary: 'Every endpoint',
        tags,
        response: { 200: Type.Array(WebhookInfo), ...errors(401, 403, 404) },
      },
    },
    async () => webhooks.list(),
  )

  app.post(
    '/',
    {
      config: admin,
      schema: {
        summary: 'Register an endpoint (its signing secret is shown only in this answer)',
        tags,
        body: WebhookModel,
        response: { 200: WebhookSaved, ...errors(401, 403, 404) },
      },
    },
    async (request) => {
      const saved = await webhooks.create(request.body)
      did(request, `added the webhook ${saved.webhook.id} (${saved.webhook.url})`)
      return saved
    },
  )

  app.get(
    '/:id',
    {
      config: admin,
      schema: {
        summary: 'One endpoint',
        tags,
        params: IdParams,
        response: { 200: WebhookInfo, ...errors(401, 403, 404) },
      },
    },
    async (request) => webhooks.get(request.params.id),
  )

  app.put(
    '/:id',
    {
      config: admin,
      schema: {
        summary: 'Change an endpoint (with rotateSecret, a new secret is shown in this answer)',
        tags,
        params: IdParams,
        body: WebhookUpdateModel,
        response: { 200: WebhookSaved, ...errors(401, 403, 404) },
      },
    },
    async (request) => {
      const saved = await webhooks.update(request.params.id, request.body)
      did(request, `changed the webhook ${saved.webhook.id}${saved.secret ? ' and its secret' : ''}`)
      return saved
    },
  )

  app.delete(
    '/:id',
    {
      config: admin,
      schema: {
        summary: 'Remove an endpoint and its delivery log',
        tags,
        params: IdParams,
        response: { 200: Empty, ...errors(401, 403, 404) },
      },
    },
    async (request, reply) => {
      const row = await webhooks.remove(request.params.id)
      did(request, `removed the webhook ${row.id} (${row.url})`)
      return reply.send()
    },
  )

  app.post(
    '/:id/test',
    {
      config: admin,
      schema: {
        summary:
          'Send a Test event now; answers with the delivery as logged (retried like any other if it failed)',
        tags,
        params: IdParams,
        response: { 200: WebhookDelivery, ...errors(401, 403, 404) },
      },
    },
    async (request) => {
      const id = await webhooks.enqueueTest(request.params.id)
      return (await webhookQueue.sendNow(id))!
    },
  )

  app.get(
    '/:id/deliveries',
    {
      config: admin,
      schema: {
        summary: 'The delivery log of an endpoint, newest first',
        tags,
        params: IdParams,
        querystring: PageQuery(100, 50),
        response: { 200: ArrayResponse(WebhookDelivery), ...errors(401, 403, 404) },
      },
    },
    async (request) => webhooks.deliveries(request.params.id, request.query),
  )

  app.post(
    '/deliveries/:id/retry',
    {
      config: admin,
      schema: {
        summary: 'Send a delivered or failed delivery again, with a fresh round of attempts',
        tags,
        params: DeliveryParams,
        response: { 200: WebhookDelivery, ...errors(401, 403, 404) },
      },
    },
    async (request) => {
      const delivery = await webhooks.retry(request.params.id)
      webhookQueue.kick()
      did(request, `sent the webhook delivery ${delivery.id} again`)
      return delivery
    },
  )
}
