import { describe, expect, it } from 'vitest'
import { EMPTY_FORM, formOf, toBody, validateWebhookForm, type Webhook } from './webhook-form'

describe(validateWebhookForm, () => {
  it('asks for an http(s) address and at least one event', () => {
    expect(validateWebhookForm({ ...EMPTY_FORM, url: ' ' })).toEqual({ url: 'webhooks.error.url_required' })
    expect(validateWebhookForm({ ...EMPTY_FORM, url: 'ftp://x' }).url).toBe('webhooks.error.url_scheme')
    expect(validateWebhookForm({ ...EMPTY_FORM, url: `https://x/${'a'.repeat(2048)}` }).url).toBe(
      'webhooks.error.url_long',
    )
    expect(validateWebhookForm({ ...EMPTY_FORM, url: 'https://chat.example.org/h', events: [] })).toEqual({
      events: 'webhooks.error.events',
    })
    expect(validateWebhookForm({ ...EMPTY_FORM, url: 'HTTP://10.0.0.5:8080/h' })).toEqual({})
  })
})

describe(toBody, () => {
  it('trims, keeps the events in their listed order and turns "every game" into null', () => {
    expect(
      toBody({ ...EMPTY_FORM, url: ' https://h/x ', events: ['GameEnded', 'FirstBlood'], gameId: '' }),
    ).toEqual({
      url: 'https://h/x',
      format: 'json',
      events: ['FirstBlood', 'GameEnded'],
      gameId: null,
      enabled: true,
    })
    expect(toBody({ ...EMPTY_FORM, url: 'https://h', gameId: '12' }).gameId).toBe(12)
  })

  it('round-trips an endpoint through the form', () => {
    const w: Webhook = {
      id: 1,
      url: 'https://h/x',
      format: 'slack',
      events: ['NewNotice'],
      gameId: 4,
      gameTitle: 'G',
      enabled: false,
      createdAt: 0,
    }
    expect(toBody(formOf(w))).toEqual({
      url: 'https://h/x',
      format: 'slack',
      events: ['NewNotice'],
      gameId: 4,
      enabled: false,
    })
  })
})
