import { randomBytes } from 'node:crypto'
import { and, count, desc, eq, sql } from 'drizzle-orm'
import type { Db } from '../../db/index.ts'
import { games, webhookDeliveries, webhooks } from '../../db/schema.ts'
import { fail } from '../../http/errors.ts'
import type { EventDocument, WebhookEvent, WebhookFormat } from './webhook-formats.ts'
import { type AllowedHosts, checkEndpointUrl } from './webhook-http.ts'
import type { WebhookDelivery, WebhookInfo, WebhookModel, WebhookUpdateModel } from './webhooks.schemas.ts'

type WebhookRow = typeof webhooks.$inferSelect
type DeliveryRow = typeof webhookDeliveries.$inferSelect

const newSecret = () => `whsec_${randomBytes(24).toString('base64url')}`

const present = (row: WebhookRow, gameTitle: string | null): WebhookInfo => ({
  id: row.id,
  url: row.url,
  format: row.format as WebhookFormat,
  events: row.events as WebhookInfo['events'],
  gameId: row.gameId,
  gameTitle,
  enabled: row.enabled,
  createdAt: row.createdAt.getTime(),
})

/** A log row: with no status code, the stored text is why no answer came. */
export const presentDelivery = (d: DeliveryRow): WebhookDelivery => {
  const answered = d.lastStatusCode !== null
  return {
    id: d.id,
    webhookId: d.webhookId,
    event: d.event as WebhookEvent,
    status: d.status as WebhookDelivery['status'],
    attempts: d.attempts,
    nextAttemptAt: d.status === 'pending' ? d.nextAttemptAt.getTime() : null,
    lastStatusCode: d.lastStatusCode,
    lastResponse: answered ? d.lastResponse : null,
    lastError: answered ? null : d.lastResponse,
    createdAt: d.createdAt.getTime(),
    deliveredAt: d.deliveredAt?.getTime() ?? null,
    payload: d.payload,
  }
}

/** The endpoints admins register, and their delivery log (`/api/ext/admin/webhooks`). */
export function createWebhookService(deps: { db: Db; allowedHosts?: AllowedHosts }) {
  const { db } = deps

  async function validate(model: WebhookModel) {
    const why = checkEndpointUrl(model.url.trim(), deps.allowedHosts)
    if (why === 'scheme') throw fail('Webhook_UrlInvalid')
    if (why === 'blocked') throw fail('Webhook_UrlBlocked')
    if (model.gameId != null) {
      const [game] = await db.select({ id: games.id }).from(games).where(eq(games.id, model.gameId))
      if (!game) throw fail('Webhook_GameNotFound')
    }
  }

  async function withTitle(row: WebhookRow): Promise<WebhookInfo> {
    if (row.gameId === null) return present(row, null)
    const [game] = await db.select({ title: games.title }).from(games).where(eq(games.id, row.gameId))
    return present(row, game?.title ?? null)
  }

  async function requireWebhook(id: number): Promise<WebhookRow> {
    const [row] = await db.select().from(webhooks).where(eq(webhooks.id, id))
    if (!row) throw fail('Webhook_NotFound')
    return row
  }

  const fields = (m: WebhookModel) => ({
    url: m.url.trim(),
    format: m.format,
    events: m.events,
    gameId: m.gameId ?? null,
    enabled: m.enabled ?? true,
  })

  return {
    requireWebhook,

    async list(): Promise<WebhookInfo[]> {
      const rows = await db
        .select({ w: webhooks, title: games.title })
        .from(webhooks)
        .leftJoin(games, eq(games.id, webhooks.gameId))
        .orderBy(webhooks.id)
      return rows.map((r) => present(r.w, r.title))
    },

    async get(id: number): Promise<WebhookInfo> {
      return withTitle(await requireWebhook(id))
    },

    async create(model: WebhookModel): Promise<{ webhook: WebhookInfo; secret: string }> {
      await validate(model)
      const secret = newSecret()
      const [row] = await db
        .insert(webhooks)
        .values({ ...fields(model), secret })
        .returning()
      return { webhook: await withTitle(row!), secret }
    },

    async update(
      id: number,
      model: WebhookUpdateModel,
    ): Promise<{ webhook: WebhookInfo; secret: string | null }> {
      await requireWebhook(id)
      await validate(model)
      const secret = model.rotateSecret ? newSecret() : null
      const [row] = await db
        .update(webhooks)
        .set({ ...fields(model), ...(secret ? { secret } : {}) })
        .where(eq(webhooks.id, id))
        .returning()
      if (!row) throw fail('Webhook_NotFound')
      return { webhook: await withTitle(row), secret }
    },

    /** Removes the endpoint and its log. */
    async remove(id: number): Promise<WebhookRow> {
      const [row] = await db.delete(webhooks).where(eq(webhooks.id, id)).returning()
      if (!row) throw fail('Webhook_NotFound')
      return row
    },

    /** The endpoint's deliveries, newest first. */
    async deliveries(id: number, page: { count: number; skip: number }) {
      await requireWebhook(id)
      const where = eq(webhookDeliveries.webhookId, id)
      const [rows, [total]] = await Promise.all([
        db
          .select()
          .from(webhookDeliveries)
          .where(where)
          .orderBy(desc(webhookDeliveries.id))
          .limit(page.count)
          .offset(page.skip),
        db.select({ n: count() }).from(webhookDeliveries).where(where),
      ])
      return { data: rows.map(presentDelivery), length: rows.length, total: total?.n ?? 0 }
    },

    /**
     * Sends a delivery again from the start (a fresh round of attempts). A pending one is
     * already on its way: refused, so it is never sent twice at once.
     */
    async retry(deliveryId: number): Promise<WebhookDelivery> {
      const [row] = await db
        .update(webhookDeliveries)
        .set({ status: 'pending', attempts: 0, nextAttemptAt: sql`now()` })
        .where(and(eq(webhookDeliveries.id, deliveryId), sql`${webhookDeliveries.status} <> 'pending'`))
        .returning()
      if (row) return presentDelivery(row)
      const [exists] = await db
        .select({ id: webhookDeliveries.id })
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.id, deliveryId))
      throw fail(exists ? 'Webhook_DeliveryPending' : 'Webhook_DeliveryNotFound')
    },

    /** A `Test` delivery for this endpoint alone (the admin's test button). */
    async enqueueTest(id: number): Promise<number> {
      await requireWebhook(id)
      const doc: EventDocument = { time: Date.now(), game: null, data: {} }
      const [row] = await db
        .insert(webhookDeliveries)
        // Not due yet: the route sends it itself, before any worker would pick it up.
        .values({
          webhookId: id,
          event: 'Test',
          payload: doc as unknown as Record<string, unknown>,
          nextAttemptAt: new Date(Date.now() + 60_000),
        })
        .returning({ id: webhookDeliveries.id })
      return row!.id
    },
  }
}
export type WebhookService = ReturnType<typeof createWebhookService>
