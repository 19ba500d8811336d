import type { Body, Ok } from '@/api/types'

export type Webhook = Ok<'/api/ext/admin/webhooks'>[number]
export type WebhookBody = Body<'/api/ext/admin/webhooks', 'post'>
export type Delivery = Ok<'/api/ext/admin/webhooks/{id}/deliveries'>['data'][number]
export type WebhookEvent = Webhook['events'][number]
export type WebhookFormat = Webhook['format']

/** In the order the form lists them. */
export const EVENTS: readonly WebhookEvent[] = [
  'FirstBlood',
  'SecondBlood',
  'ThirdBlood',
  'NewNotice',
  'GameStarted',
  'GameEnded',
  'ContainerFailed',
]
export const FORMATS: readonly WebhookFormat[] = ['json', 'discord', 'slack']
export const URL_MAX = 2048

/** The add / edit form as typed; `gameId` is the select's value ('' for every game). */
export interface WebhookForm {
  url: string
  format: WebhookFormat
  events: WebhookEvent[]
  gameId: string
  enabled: boolean
}

export const EMPTY_FORM: WebhookForm = {
  url: '',
  format: 'json',
  events: ['FirstBlood', 'SecondBlood', 'ThirdBlood'],
  gameId: '',
  enabled: true,
}

export function formOf(w: Webhook): WebhookForm {
  return {
    url: w.url,
    format: w.format,
    events: [...w.events],
    gameId: w.gameId === null ? '' : String(w.gameId),
    enabled: w.enabled,
  }
}

export type WebhookFormErrors = Partial<Record<'url' | 'events', string>>

/** Translation keys per field; empty when the form can be sent. The server checks the rest. */
export function validateWebhookForm(form: WebhookForm): WebhookFormErrors {
  const errors: WebhookFormErrors = {}
  const url = form.url.trim()
  if (!url) errors.url = 'webhooks.error.url_required'
  else if (url.length > URL_MAX) errors.url = 'webhooks.error.url_long'
  else if (!/^https?:\/\/[^\s/]+/i.test(url)) errors.url = 'webhooks.error.url_scheme'
  if (!form.events.length) errors.events = 'webhooks.error.events'
  return errors
}

export function toBody(form: WebhookForm): WebhookBody {
  return {
    url: form.url.trim(),
    format: form.format,
    events: EVENTS.filter((e) => form.events.includes(e)),
    gameId: form.gameId ? Number(form.gameId) : null,
    enabled: form.enabled,
  }
}

/** Badge colours of a delivery's state. */
export const STATUS_COLOR: Record<Delivery['status'], string> = {
  pending: 'blue',
  delivered: 'teal',
  failed: 'red',
}
