import { eq } from 'drizzle-orm'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { webhookDeliveries, webhooks } from '../../src/db/schema.ts'
import {
  acceptedPlayer,
  adminAgent,
  createGame,
  eventually,
  expectAdminOnly,
  registeredUser,
  staticChallenge,
  type TestUser,
} from '../factories.ts'
import { Agent } from '../helpers/agent.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'
import { type Endpoint, startEndpoint, verifySignature } from './endpoint.ts'

const BASE = '/api/ext/admin/webhooks'
let t: TestApp
let admin: Agent
let endpoint: Endpoint

beforeAll(async () => {
  // Retries after 150 ms, 600 ms…; an attempt waits 10 s for an answer, as in production.
  // Rate limits off: one admin makes many games here.
  t = await createTestApp(
    // The test endpoint listens on loopback, which only an operator's allow-list opens.
    { DISABLE_RATE_LIMIT: 'true', WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' },
    { webhookTimings: { pollMs: 100, retryBaseMs: 150, timeoutMs: 10_000, gameCheckMs: 0 } },
  )
  admin = await adminAgent(t.app)
})
afterAll(() => t.close())

async function switchOn(on = true) {
  expect((await admin.put('/api/ext/features', { webhooks: on })).statusCode).toBe(200)
}
beforeEach(() => switchOn())
afterEach(async () => {
  await endpoint?.close()
  // Each test starts with no endpoints registered.
  await switchOn()
  for (const w of (await admin.get(BASE)).json() as { id: number }[]) await admin.delete(`${BASE}/${w.id}`)
})

async function register(body: Record<string, unknown>) {
  const res = await admin.post(BASE, { format: 'json', events: ['FirstBlood'], ...body })
  expect(res.statusCode, res.body).toBe(200)
  return res.json() as { webhook: { id: number } & Record<string, unknown>; secret: string }
}

const deliveries = async (id: number) =>
  (await admin.get(`${BASE}/${id}/deliveries`)).json() as {
    data: Record<string, unknown>[]
    total: number
  }

async function submit(player: TestUser, gameId: number, challengeId: number, flag: string) {
  const res = await player.agent.post(`/api/game/${gameId}/challenges/${challengeId}`, { flag })
  expect(res.statusCode, res.body).toBe(200)
  return res.json() as number
}

async function playingGame() {
  const game = await createGame(admin)
  const c = await staticChallenge(admin, game.id, 'flag{hook}')
  const players = [await acceptedPlayer(t.app, admin, game.id), await acceptedPlayer(t.app, admin, game.id)]
  for (const p of players) await p.agent.get(`/api/game/${game.id}/challenges/${c.id}`)
  return { game, c, players }
}

describe('switched off', () => {
  it('answers 404 on every route (after the role check) and queues nothing', async () => {
    await switchOn()
    endpoint = await startEndpoint()
    const { webhook } = await register({ url: endpoint.url })
    await switchOn(false)
    for (const [method, url] of [
      ['GET', BASE],
      ['POST', BASE],
      ['GET', `${BASE}/${webhook.id}`],
      ['POST', `${BASE}/${webhook.id}/test`],
      ['GET', `${BASE}/${webhook.id}/deliveries`],
      ['POST', `${BASE}/deliveries/1/retry`],
    ] as const) {
      const res = await admin.request({ method, url })
      expect(res.statusCode, url).toBe(404)
      expect(res.json()).toEqual({ title: expect.stringContaining('switched off'), status: 404 })
      expect((await new Agent(t.app).request({ method, url })).statusCode).toBe(401)
    }
    const { game, c, players } = await playingGame()
    await submit(players[0]!, game.id, c.id, 'flag{hook}')
    await t.app.deps.services.judge.drain()
    // real wait: the webhook sender's loop runs on real time (not yet on the clock): nothing was queued
    await new Promise((r) => setTimeout(r, 300))
    const rows = await t.app.deps.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.webhookId, webhook.id))
    expect(rows).toEqual([])
    expect(endpoint.received).toEqual([])
  })
})

describe('registering endpoints', () => {
  it('is for admins only', async () => {
    await switchOn()
    await expectAdminOnly(t.app, admin, [
      ['GET', BASE],
      ['POST', BASE],
      ['GET', `${BASE}/1`],
      ['PUT', `${BASE}/1`],
      ['DELETE', `${BASE}/1`],
      ['POST', `${BASE}/1/test`],
      ['GET', `${BASE}/1/deliveries`],
      ['POST', `${BASE}/deliveries/1/retry`],
    ])
  })

  it('shows the secret once, lists without it, edits, rotates and removes', async () => {
    const game = await createGame(admin)
    const created = await register({ url: 'https://chat.example.org/hook', gameId: game.id, format: 'slack' })
    expect(created.secret).toMatch(/^whsec_[\w-]{32}$/)
    expect(created.webhook).toEqual({
      id: expect.any(Number),
      url: 'https://chat.example.org/hook',
      format: 'slack',
      events: ['FirstBlood'],
      gameId: game.id,
      gameTitle: game.title,
      enabled: true,
      createdAt: expect.any(Number),
    })
    const list = await admin.get(BASE)
    expect(list.json()).toEqual([created.webhook])
    expect(list.body).not.toContain(created.secret)
    const id = created.webhook.id
    expect((await admin.get(`${BASE}/${id}`)).json()).toEqual(created.webhook)

    const edited = await admin.put(`${BASE}/${id}`, {
      url: 'http://hooks.example.com:8080/x',
      format: 'discord',
      events: ['NewNotice', 'GameEnded'],
      gameId: null,
      enabled: false,
    })
    expect(edited.json()).toEqual({
      webhook: {
        ...created.webhook,
        url: 'http://hooks.example.com:8080/x',
        format: 'discord',
        events: ['NewNotice', 'GameEnded'],
        gameId: null,
        gameTitle: null,
        enabled: false,
      },
      secret: null,
    })
    const rotated = await admin.put(`${BASE}/${id}`, { ...edited.json().webhook, rotateSecret: true })
    expect(rotated.json().secret).toMatch(/^whsec_/)
    expect(rotated.json().secret).not.toBe(created.secret)

    expect((await admin.delete(`${BASE}/${id}`)).statusCode).toBe(200)
    expect((await admin.get(`${BASE}/${id}`)).json()).toEqual({ title: 'Webhook not found', status: 404 })
    expect((await admin.delete(`${BASE}/${id}`)).statusCode).toBe(404)
    expect((await admin.get(BASE)).json()).toEqual([])
  })

  it('refuses bad input with a 400, and addresses that are not http(s) or point at metadata services', async () => {
    const good = { url: 'https://example.org/h', format: 'json', events: ['FirstBlood'] }
    const cases: [Record<string, unknown> | unknown, RegExp][] = [
      [{ ...good, url: 'ftp://example.org/h' }, /http/],
      [{ ...good, url: 'javascript:alert(1)' }, /http/],
      [{ ...good, url: 'file:///etc/passwd' }, /http/],
      [{ ...good, url: 'not a url' }, /http/],
      [{ ...good, url: 'https://user:pw@example.org/h' }, /http/],
      [{ ...good, url: 'http://169.254.169.254/latest/meta-data/' }, /metadata/],
      [{ ...good, url: 'http://[fe80::1]/h' }, /metadata/],
      [{ ...good, url: 'http://[::ffff:169.254.169.254]/h' }, /metadata/],
      [{ ...good, url: 'http://metadata.google.internal/computeMetadata/v1/' }, /metadata/],
      // Every internal or special-purpose spelling (the review's findings first).
      [{ ...good, url: 'http://[::169.254.169.254]/h' }, /metadata/],
      [{ ...good, url: 'http://[64:ff9b::a9fe:a9fe]/h' }, /metadata/],
      [{ ...good, url: 'http://instance-data/latest/meta-data/' }, /metadata/],
      [{ ...good, url: 'http://192.0.0.192/opc/v2/instance/' }, /metadata/],
      [{ ...good, url: 'http://168.63.129.16/machine' }, /metadata/],
      [{ ...good, url: 'http://127.0.0.2:8080/h' }, /internal/],
      [{ ...good, url: 'http://localhost:8080/h' }, /internal/],
      [{ ...good, url: 'http://10.1.2.3/h' }, /internal/],
      [{ ...good, url: 'http://[::1]/h' }, /internal/],
      [{ ...good, url: 'http://[fd00:ec2::254]/h' }, /internal/],
      [{ ...good, url: 'http://2852039166/h' }, /internal/],
      [{ ...good, url: '' }, /./],
      [{ ...good, url: 'https://example.org/'.padEnd(3000, 'a') }, /./],
      [{ ...good, events: [] }, /./],
      [{ ...good, events: ['Teleport'] }, /./],
      [{ ...good, events: ['FirstBlood', 'FirstBlood'] }, /./],
      [{ ...good, format: 'teams' }, /./],
      [{ ...good, gameId: 'one' }, /./],
      [{ ...good, gameId: 987654 }, /game/],
      [{ ...good, enabled: 'yes' }, /./],
      [[good], /./],
      ['hook', /./],
    ]
    for (const [body, title] of cases) {
      const res = await admin.post(BASE, body)
      expect(res.statusCode, JSON.stringify(body)).toBe(400)
      expect(res.json()).toEqual({ title: expect.stringMatching(title), status: 400 })
    }
    expect((await admin.get(BASE)).json()).toEqual([])
    expect((await admin.get(`${BASE}/abc`)).statusCode).toBe(400)
    expect((await admin.get(`${BASE}/0/deliveries`)).statusCode).toBe(400)
    expect((await admin.get(`${BASE}/1/deliveries?count=1000`)).statusCode).toBe(400)
    expect((await admin.put(`${BASE}/424242`, good)).json()).toEqual({
      title: 'Webhook not found',
      status: 404,
    })
    expect((await admin.post(`${BASE}/424242/test`)).statusCode).toBe(404)
    expect((await admin.post(`${BASE}/deliveries/424242/retry`)).json()).toEqual({
      title: 'Delivery not found',
      status: 404,
    })
  })
})

describe('deliveries', () => {
  it('sends a signed test event in each format', async () => {
    endpoint = await startEndpoint()
    const game = await createGame(admin, { title: 'Spring *CTF*' })
    for (const format of ['json', 'discord', 'slack'] as const) {
      const { webhook, secret } = await register({ url: endpoint.url, format, gameId: game.id })
      const res = await admin.post(`${BASE}/${webhook.id}/test`)
      expect(res.json()).toMatchObject({
        webhookId: webhook.id,
        event: 'Test',
        status: 'delivered',
        attempts: 1,
        lastStatusCode: 200,
        lastResponse: 'ok, thanks',
        lastError: null,
        nextAttemptAt: null,
      })
      const got = endpoint.received.at(-1)!
      expect(verifySignature(secret, got)).toBe(true)
      expect(verifySignature('whsec_wrong', got)).toBe(false)
      // The timestamp is part of the signed text: changing it breaks the signature.
      const ts = Number(got.headers['x-pennant-timestamp'])
      expect(Math.abs(ts - Date.now() / 1000)).toBeLessThan(5)
      expect(
        verifySignature(secret, {
          ...got,
          headers: { ...got.headers, 'x-pennant-timestamp': String(ts + 1) },
        }),
      ).toBe(false)
      expect(got.headers['x-pennant-event']).toBe('Test')
      expect(got.headers['x-pennant-delivery']).toBe(String(res.json().id))
      expect(got.headers['content-type']).toBe('application/json')
      if (format === 'json')
        expect(got.json).toEqual({
          id: res.json().id,
          event: 'Test',
          time: expect.any(Number),
          game: null,
          data: {},
        })
      if (format === 'discord') {
        expect(got.json).toEqual({
          content: expect.stringContaining('test delivery'),
          embeds: [
            expect.objectContaining({
              title: 'Test',
              color: expect.any(Number),
              timestamp: expect.any(String),
            }),
          ],
          allowed_mentions: { parse: [] },
        })
      }
      if (format === 'slack')
        expect(got.json).toEqual({
          text: expect.stringContaining('test delivery'),
          blocks: [
            { type: 'section', text: { type: 'mrkdwn', text: expect.stringContaining('test delivery') } },
            { type: 'context', elements: [{ type: 'mrkdwn', text: expect.stringContaining('Test') }] },
          ],
        })
    }
    expect(endpoint.received).toHaveLength(3)
  })

  it('turns a first blood into exactly one delivery per endpoint that wants it, in its format', async () => {
    endpoint = await startEndpoint()
    const { game, c, players } = await playingGame()
    const json = await register({ url: `${endpoint.url}?f=json`, events: ['FirstBlood', 'SecondBlood'] })
    const discord = await register({ url: `${endpoint.url}?f=discord`, format: 'discord', gameId: game.id })
    const slack = await register({ url: `${endpoint.url}?f=slack`, format: 'slack' })
    const otherGame = await createGame(admin)
    const elsewhere = await register({ url: `${endpoint.url}?f=other`, gameId: otherGame.id })
    const noticesOnly = await register({ url: `${endpoint.url}?f=notice`, events: ['NewNotice'] })

    await submit(players[0]!, game.id, c.id, 'flag{hook}')
    await t.app.deps.services.judge.drain()
    await eventually(async () => expect(endpoint.received).toHaveLength(3))
    // A little longer: nothing more arrives (no duplicates, nothing for the others).
    // real wait: the webhook sender's loop runs on real time (not yet on the clock): nothing more arrives
    await new Promise((r) => setTimeout(r, 400))
    expect(endpoint.received).toHaveLength(3)
    for (const w of [json, discord, slack]) {
      const log = await deliveries(w.webhook.id)
      expect(log.total).toBe(1)
      expect(log.data[0]).toMatchObject({ event: 'FirstBlood', status: 'delivered', attempts: 1 })
    }
    for (const w of [elsewhere, noticesOnly]) expect((await deliveries(w.webhook.id)).total).toBe(0)

    const bodies = Object.fromEntries(
      (
        await Promise.all(
          [json, discord, slack].map(async (w) => [w, (await deliveries(w.webhook.id)).data[0]!] as const),
        )
      ).map(([w, d]) => [
        w.webhook.format as string,
        endpoint.received.find((r) => r.headers['x-pennant-delivery'] === String(d.id))!,
      ]),
    )
    expect(bodies.json!.json).toEqual({
      id: expect.any(Number),
      event: 'FirstBlood',
      time: expect.any(Number),
      game: { id: game.id, title: game.title },
      data: { team: expect.any(String), challenge: c.title },
    })
    expect(verifySignature(json.secret, bodies.json!)).toBe(true)
    const teamName = (bodies.json!.json.data as { team: string }).team
    expect(bodies.discord!.json.content).toBe(
      `First blood: **${teamName}** solved **${c.title}** in **${game.title}**`,
    )
    expect(bodies.slack!.json.text).toBe(`First blood: *${teamName}* solved *${c.title}* in *${game.title}*`)

    // The second team's solve is a second blood: only the endpoint that asked for it hears.
    await submit(players[1]!, game.id, c.id, 'flag{hook}')
    await t.app.deps.services.judge.drain()
    await eventually(async () => expect((await deliveries(json.webhook.id)).total).toBe(2))
    expect((await deliveries(json.webhook.id)).data[0]).toMatchObject({ event: 'SecondBlood' })
    for (const w of [discord, slack]) expect((await deliveries(w.webhook.id)).total).toBe(1)
  })

  it('sends organisers’ notices', async () => {
    endpoint = await startEndpoint()
    const game = await createGame(admin)
    const { webhook } = await register({ url: endpoint.url, events: ['NewNotice'] })
    const res = await admin.post(`/api/edit/games/${game.id}/notices`, {
      content: 'Servers restart at 14:00',
    })
    expect(res.statusCode).toBe(200)
    await eventually(async () => expect(endpoint.received).toHaveLength(1))
    expect(endpoint.received[0]!.json).toMatchObject({
      event: 'NewNotice',
      game: { id: game.id, title: game.title },
      data: { content: 'Servers restart at 14:00' },
    })
    expect((await deliveries(webhook.id)).total).toBe(1)
  })

  it('retries a failing endpoint with growing delays until it answers, logging each answer', async () => {
    endpoint = await startEndpoint()
    endpoint.plan.push(500, 503)
    const { webhook, secret } = await register({ url: endpoint.url, events: ['NewNotice'] })
    const game = await createGame(admin)
    await admin.post(`/api/edit/games/${game.id}/notices`, { content: 'retry me' })
    await eventually(async () => expect(endpoint.received).toHaveLength(1))
    await eventually(async () => {
      const [d] = (await deliveries(webhook.id)).data
      expect(d).toMatchObject({ status: 'pending', attempts: 1, lastStatusCode: 500, lastError: null })
      expect(d!.lastResponse).toMatch(/^failure 500: x+$/)
      expect((d!.lastResponse as string).length).toBe(512)
    })
    await eventually(async () => expect(endpoint.received).toHaveLength(3), 8000)
    await eventually(async () =>
      expect((await deliveries(webhook.id)).data[0]).toMatchObject({
        status: 'delivered',
        attempts: 3,
        lastStatusCode: 200,
        lastResponse: 'ok, thanks',
      }),
    )
    const [first, second, third] = endpoint.received
    // One delivery, sent three times, each signed; the waits grow (150 ms, then 600 ms).
    expect(new Set(endpoint.received.map((r) => r.headers['x-pennant-delivery'])).size).toBe(1)
    for (const r of endpoint.received) expect(verifySignature(secret, r)).toBe(true)
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(140)
    expect(third!.at - second!.at).toBeGreaterThanOrEqual(580)
    expect(third!.at - second!.at).toBeGreaterThan(second!.at - first!.at)
  })

  it('gives up after five attempts, and sends again from the start when an admin retries', async () => {
    endpoint = await startEndpoint()
    endpoint.setFallback(500)
    const { webhook } = await register({ url: endpoint.url, events: ['NewNotice'] })
    const game = await createGame(admin)
    await t.app.deps.services.webhookQueue.enqueue('NewNotice', game.id, {
      time: Date.now(),
      game: null,
      data: { content: 'x' },
    })
    // 150 + 600 + 2400 + 9600 ms is too long to wait: bring each retry forward.
    await eventually(async () => {
      await t.app.deps.db
        .update(webhookDeliveries)
        .set({ nextAttemptAt: new Date() })
        .where(eq(webhookDeliveries.status, 'pending'))
      const [d] = (await deliveries(webhook.id)).data
      expect(d).toMatchObject({ status: 'failed', attempts: 5, lastStatusCode: 500, nextAttemptAt: null })
    }, 10_000)
    // real wait: the webhook sender's loop runs on real time (not yet on the clock): no sixth attempt
    await new Promise((r) => setTimeout(r, 300))
    expect(endpoint.received).toHaveLength(5)
    const [failed] = (await deliveries(webhook.id)).data

    endpoint.setFallback(200)
    const retried = await admin.post(`${BASE}/deliveries/${failed!.id}/retry`)
    expect(retried.json()).toMatchObject({ id: failed!.id, status: 'pending', attempts: 0 })
    // A pending one is on its way already: not sent twice at once.
    expect((await admin.post(`${BASE}/deliveries/${failed!.id}/retry`)).json()).toEqual({
      title: expect.stringContaining('queued'),
      status: 400,
    })
    await eventually(async () =>
      expect((await deliveries(webhook.id)).data[0]).toMatchObject({
        status: 'delivered',
        attempts: 1,
        lastStatusCode: 200,
        deliveredAt: expect.any(Number),
      }),
    )
    expect(endpoint.received).toHaveLength(6)
    expect((await deliveries(webhook.id)).total).toBe(1)
  })

  it('refuses at send an address that was not allowed, whatever was saved', async () => {
    endpoint = await startEndpoint()
    const { webhook } = await register({ url: endpoint.url })
    // A row written before this check existed (or by hand): the sender judges it again.
    const port = new URL(endpoint.url).port
    await t.app.deps.db
      .update(webhooks)
      .set({ url: `http://[::ffff:7f00:1]:${port}/hook` })
      .where(eq(webhooks.id, webhook.id))
    const res = await admin.post(`${BASE}/${webhook.id}/test`)
    expect(res.json()).toMatchObject({
      attempts: 1,
      lastStatusCode: null,
      lastError: expect.stringContaining('blocked address'),
    })
    expect(endpoint.received).toHaveLength(0)
  })

  it('logs why no answer came from an endpoint nobody listens on', async () => {
    endpoint = await startEndpoint()
    await endpoint.close()
    const { webhook } = await register({ url: endpoint.url })
    const res = await admin.post(`${BASE}/${webhook.id}/test`)
    expect(res.json()).toMatchObject({
      status: 'pending',
      attempts: 1,
      lastStatusCode: null,
      lastResponse: null,
      lastError: expect.stringContaining('ECONNREFUSED'),
      nextAttemptAt: expect.any(Number),
    })
  })

  it('never makes the judge wait for an endpoint that hangs', async () => {
    endpoint = await startEndpoint()
    endpoint.setFallback('hang')
    const { game, c, players } = await playingGame()
    const hook = await register({ url: endpoint.url, events: ['FirstBlood', 'SecondBlood'] })
    // The first blood's delivery is now in flight, hanging.
    await submit(players[0]!, game.id, c.id, 'flag{hook}')
    await eventually(async () => expect(endpoint.received).toHaveLength(1))
    const started = Date.now()
    const id = await submit(players[1]!, game.id, c.id, 'flag{hook}')
    const verdict = await eventually(async () => {
      const res = await players[1]!.agent.get(`/api/game/${game.id}/challenges/${c.id}/status/${id}`)
      expect(res.json()).toBe('Accepted')
      return res.json()
    })
    expect(verdict).toBe('Accepted')
    // Far below the 10 s the endpoint would hold a sender (a loaded machine gets some slack).
    expect(Date.now() - started).toBeLessThan(3000)
    // …while the first blood's delivery still waits for its answer.
    const log = (await deliveries(hook.webhook.id)).data
    expect(log.find((d) => d.event === 'FirstBlood')).toMatchObject({
      status: 'pending',
      attempts: 1,
      lastStatusCode: null,
    })
    // The second blood's delivery is not held up behind it either.
    await eventually(async () => expect(endpoint.received).toHaveLength(2))
  })
})

describe('game start and end', () => {
  it('are told once each, and only for times after the endpoint was made', async () => {
    endpoint = await startEndpoint()
    const past = await createGame(admin, { start: Date.now() - 7200_000, end: Date.now() - 3600_000 })
    const { webhook } = await register({ url: endpoint.url, events: ['GameStarted', 'GameEnded'] })
    const game = await createGame(admin, { start: Date.now() + 600, end: Date.now() + 1500 })
    const queue = t.app.deps.services.webhookQueue
    await eventually(async () => expect(endpoint.received.map((r) => r.json.event)).toEqual(['GameStarted']))
    await eventually(async () =>
      expect(endpoint.received.map((r) => r.json.event)).toEqual(['GameStarted', 'GameEnded']),
    )
    expect(await queue.checkGameTimes()).toBe(0)
    expect(endpoint.received[0]!.json).toMatchObject({ game: { id: game.id, title: game.title } })
    expect(endpoint.received.every((r) => (r.json.game as { id: number }).id !== past.id)).toBe(true)
    expect((await deliveries(webhook.id)).total).toBe(2)
  })
})

describe('the log', () => {
  it('forgets finished deliveries after 30 days, and keeps pending ones', async () => {
    endpoint = await startEndpoint()
    const { webhook } = await register({ url: endpoint.url })
    const old = new Date(Date.now() - 31 * 86_400_000)
    const rows = await t.app.deps.db
      .insert(webhookDeliveries)
      .values(
        (['delivered', 'failed', 'pending'] as const).map((status) => ({
          webhookId: webhook.id,
          event: 'Test',
          payload: {},
          status,
          createdAt: old,
          nextAttemptAt: new Date(Date.now() + 3600_000),
        })),
      )
      .returning()
    expect(await t.app.deps.services.webhookQueue.trim()).toBeGreaterThanOrEqual(2)
    const left = await deliveries(webhook.id)
    expect(left.data.map((d) => d.id)).toEqual([rows[2]!.id])
  })
})

describe('a plain user', () => {
  it('cannot see deliveries of any endpoint', async () => {
    const user = await registeredUser(t.app)
    expect((await user.agent.get(`${BASE}/1/deliveries`)).statusCode).toBe(403)
  })
})
