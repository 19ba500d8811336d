import { type Static, Type } from 'typebox'
import { Id, Nullable, RequiredString } from '../../http/schema.ts'
import { WEBHOOK_EVENTS, WEBHOOK_FORMATS } from './webhook-formats.ts'

/** A string that is one of `values` (an OpenAPI string enum). */
const OneOf = <const T extends readonly string[]>(values: T, description?: string) =>
  Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...(description ? { description } : {}) })

export const WebhookEventName = OneOf(WEBHOOK_EVENTS, 'An event an endpoint can subscribe to')
const EventOrTest = OneOf([...WEBHOOK_EVENTS, 'Test'] as const, 'The event, or `Test` (the test button)')
export const WebhookFormatName = OneOf(
  WEBHOOK_FORMATS,
  '`json` (the event itself), `discord` ({content, embeds}) or `slack` ({text, blocks})',
)

/** What an admin sends to register or change an endpoint. */
export const WebhookModel = Type.Object(
  {
    /** Where deliveries are POSTed: an http:// or https:// URL. */
    url: RequiredString({ maxLength: 2048 }),
    format: WebhookFormatName,
    /** The events to deliver; at least one, each once. */
    events: Type.Array(WebhookEventName, { minItems: 1, maxItems: WEBHOOK_EVENTS.length, uniqueItems: true }),
    /** Only this game's events; null: every game's. */
    gameId: Type.Optional(Nullable(Id)),
    enabled: Type.Optional(Type.Boolean({ default: true })),
  },
  { additionalProperties: false },
)
export type WebhookModel = Static<typeof WebhookModel>

export const WebhookUpdateModel = Type.Object(
  {
    ...WebhookModel.properties,
    /** Make a new signing secret (shown once in the answer); the old one stops working. */
    rotateSecret: Type.Optional(Type.Boolean({ default: false })),
  },
  { additionalProperties: false },
)
export type WebhookUpdateModel = Static<typeof WebhookUpdateModel>

export const WebhookInfo = Type.Object({
  id: Type.Integer(),
  url: Type.String(),
  format: WebhookFormatName,
  events: Type.Array(WebhookEventName),
  gameId: Nullable(Type.Integer()),
  /** The filtered game's title; null when there is no filter. */
  gameTitle: Nullable(Type.String()),
  enabled: Type.Boolean(),
  createdAt: Type.Integer(),
})
export type WebhookInfo = Static<typeof WebhookInfo>

export const WebhookSaved = Type.Object({
  webhook: WebhookInfo,
  /** The signing secret: only when it was just made (creation, rotation), never again. */
  secret: Nullable(Type.String()),
})

export const DeliveryStatus = OneOf(
  ['pending', 'delivered', 'failed'] as const,
  '`pending` (queued or waiting to retry), `delivered` (a 2xx answer), `failed` (gave up)',
)

export const WebhookDelivery = Type.Object({
  id: Type.Integer(),
  webhookId: Type.Integer(),
  event: EventOrTest,
  status: DeliveryStatus,
  attempts: Type.Integer(),
  /** When it is tried next; null unless pending. */
  nextAttemptAt: Nullable(Type.Integer()),
  /** The HTTP status of the last answer; null when none came. */
  lastStatusCode: Nullable(Type.Integer()),
  /** The first bytes of the last answer's body. */
  lastResponse: Nullable(Type.String()),
  /** Why the last attempt got no answer (refused, timed out, blocked address). */
  lastError: Nullable(Type.String()),
  createdAt: Type.Integer(),
  deliveredAt: Nullable(Type.Integer()),
  /** The event as stored: `{time, game, data}`. */
  payload: Type.Record(Type.String(), Type.Unknown()),
})
export type WebhookDelivery = Static<typeof WebhookDelivery>
