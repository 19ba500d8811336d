import { createHmac } from 'node:crypto'

/** What an endpoint may subscribe to. `Test` is sent only by the admin's test button. */
export const WEBHOOK_EVENTS = [
  'FirstBlood',
  'SecondBlood',
  'ThirdBlood',
  'NewNotice',
  'GameStarted',
  'GameEnded',
  'ContainerFailed',
] as const
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number] | 'Test'

export const WEBHOOK_FORMATS = ['json', 'discord', 'slack'] as const
export type WebhookFormat = (typeof WEBHOOK_FORMATS)[number]

/** An event as stored in a delivery's payload: the same for every format. */
export interface EventDocument {
  /** Epoch ms when it happened. */
  time: number
  game: { id: number; title: string } | null
  /** Event-specific facts (team, challenge, notice text, reason…). */
  data: Record<string, unknown>
  /** Deduplication key: one delivery per endpoint and key (see webhooks.service `enqueue`). */
  key?: string
}

const str = (v: unknown) => (v === undefined || v === null ? '' : String(v))
const BLOOD_ORDINAL = { FirstBlood: 'First', SecondBlood: 'Second', ThirdBlood: 'Third' } as const

/** One English line saying what happened, with the names marked by `mark` (bold in chat tools). */
export function describe(event: WebhookEvent, doc: EventDocument, mark: (s: string) => string): string {
  const d = doc.data
  const game = doc.game ? mark(doc.game.title) : 'a game'
  switch (event) {
    case 'FirstBlood':
    case 'SecondBlood':
    case 'ThirdBlood':
      return `${BLOOD_ORDINAL[event]} blood: ${mark(str(d.team))} solved ${mark(str(d.challenge))} in ${game}`
    case 'NewNotice':
      return `New notice in ${game}: ${str(d.content)}`
    case 'GameStarted':
      return `${game} has started`
    case 'GameEnded':
      return `${game} has ended`
    case 'ContainerFailed':
      return `A container of ${mark(str(d.challenge) || str(d.image))}${d.team ? ` for ${mark(str(d.team))}` : ''} ${
        d.phase === 'died' ? 'stopped running' : 'failed to start'
      }${d.reason ? `: ${str(d.reason)}` : ''}`
    case 'Test':
      return 'A test delivery from Pennant: this endpoint is set up correctly'
  }
}

/** Discord text: `*`, `_`, `~`, `` ` ``, `|`, `>` and `\` would format; escape them. */
const discordEscape = (s: string) => s.replace(/([\\*_~`|>])/g, '\\$1')
/** Slack mrkdwn: only `&`, `<` and `>` are control characters. */
const slackEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')

const COLOURS: Record<WebhookEvent, number> = {
  FirstBlood: 0xe03131,
  SecondBlood: 0xf08c00,
  ThirdBlood: 0xfab005,
  NewNotice: 0x1c7ed6,
  GameStarted: 0x2f9e44,
  GameEnded: 0x868e96,
  ContainerFailed: 0xc2255c,
  Test: 0x7048e8,
}

/**
 * The request body an endpoint of this format receives. Plain JSON carries the whole event;
 * Discord and Slack get a ready-made chat message (their incoming-webhook shapes).
 */
export function renderBody(
  format: WebhookFormat,
  delivery: { id: number; event: WebhookEvent; doc: EventDocument },
): Record<string, unknown> {
  const { id, event, doc } = delivery
  const iso = new Date(doc.time).toISOString()
  if (format === 'discord') {
    const safe = { ...doc, game: doc.game && { ...doc.game, title: discordEscape(doc.game.title) } }
    const text = describe(event, { ...safe, data: escapeValues(doc.data, discordEscape) }, (s) => `**${s}**`)
    return {
      content: text,
      embeds: [
        {
          title: event,
          description: text,
          color: COLOURS[event],
          timestamp: iso,
          ...(doc.game ? { footer: { text: doc.game.title } } : {}),
        },
      ],
      // Team names and notices are other people's text: they must never ping anyone.
      allowed_mentions: { parse: [] },
    }
  }
  if (format === 'slack') {
    const safe = { ...doc, game: doc.game && { ...doc.game, title: slackEscape(doc.game.title) } }
    const text = describe(event, { ...safe, data: escapeValues(doc.data, slackEscape) }, (s) => `*${s}*`)
    return {
      text,
      blocks: [
        { type: 'section', text: { type: 'mrkdwn', text } },
        { type: 'context', elements: [{ type: 'mrkdwn', text: `${event} · ${iso}` }] },
      ],
    }
  }
  return { id, event, time: doc.time, game: doc.game, data: doc.data }
}

function escapeValues(data: Record<string, unknown>, escapeText: (s: string) => string) {
  return Object.fromEntries(
    Object.entries(data).map(([k, v]) => [k, typeof v === 'string' ? escapeText(v) : v]),
  )
}

/**
 * The signature headers of a delivery. The signed text is `<timestamp>.<body>`, so a captured
 * request cannot be replayed later with a fresh timestamp; receivers should refuse old timestamps.
 */
export function signatureHeaders(secret: string, body: string, timestamp: number): Record<string, string> {
  const mac = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')
  return {
    'X-Pennant-Timestamp': String(timestamp),
    'X-Pennant-Signature': `sha256=${mac}`,
  }
}
