import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  acceptedPlayer,
  adminAgent,
  createGame,
  eventually,
  registeredUser,
  staticChallenge,
} from '../factories.ts'
import { Agent } from '../helpers/agent.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'

/** The value of one sample (`name{labels} value`), or undefined when it is absent. */
function sample(text: string, name: string, labels = ''): number | undefined {
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue
    const [key, value] = line.split(' ')
    if (!key || value === undefined) continue
    const bare = key.split('{')[0]
    if (bare !== name) continue
    if (labels && !key.includes(labels)) continue
    return Number(value)
  }
  return undefined
}

describe('GET /metrics without METRICS_TOKEN', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp()
  })
  afterAll(async () => t?.close())

  const local = () => new Agent(t.app, '127.0.0.1')

  it('is readable from this machine, in Prometheus text format', async () => {
    const res = await local().get('/metrics')
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/)
    expect(res.body).toContain('# TYPE pennant_http_request_duration_seconds histogram')
    expect(res.body).toContain('# TYPE pennant_process_cpu_user_seconds_total counter')
    expect(sample(res.body, 'pennant_db_info', `kind="${t.databaseUrl ? 'postgres' : 'pglite'}"`)).toBe(1)
    expect(sample(res.body, 'pennant_containers_running')).toBe(0)
    expect(sample(res.body, 'pennant_draining')).toBe(0)
    expect(sample(res.body, 'pennant_db_statements_total')).toBeGreaterThan(0)
    // The pool exists on PostgreSQL only.
    if (t.databaseUrl) expect(sample(res.body, 'pennant_db_pool_connections', 'state="max"')).toBe(32)
    else expect(sample(res.body, 'pennant_db_pool_connections')).toBeUndefined()
  })

  it('is refused to other addresses, and to local requests that came through a proxy', async () => {
    const remote = await new Agent(t.app, '203.0.113.9').get('/metrics')
    expect(remote.statusCode).toBe(403)
    expect(remote.json()).toEqual({ title: expect.any(String), status: 403 })
    const proxied = await local().get('/metrics', { 'x-forwarded-for': '203.0.113.9' })
    expect(proxied.statusCode).toBe(403)
    const forwarded = await local().get('/metrics', { forwarded: 'for=203.0.113.9' })
    expect(forwarded.statusCode).toBe(403)
  })

  it('times requests by route pattern, not by URL', async () => {
    const player = await registeredUser(t.app)
    await player.agent.get('/api/game/12345')
    await player.agent.get('/api/game/67890')
    await player.agent.get('/api/no/such/route')
    const text = (await local().get('/metrics')).body
    const count = (route: string, status: number) =>
      sample(
        text,
        'pennant_http_request_duration_seconds_count',
        `method="GET",route="${route}",status_code="${status}"`,
      )
    expect(count('/api/game/:id', 404)).toBe(2)
    expect(count('(unmatched)', 404)).toBe(1)
    expect(text).not.toContain('/api/game/12345')
  })

  it('tells the judge queue, its lag, scoreboard rebuilds and hub connections', async () => {
    const admin = await adminAgent(t.app)
    const game = await createGame(admin)
    const c = await staticChallenge(admin, game.id, 'flag{metrics}')
    const player = await acceptedPlayer(t.app, admin, game.id)
    // The first read builds the board in full; the solve is then added in memory.
    expect((await player.agent.get(`/api/game/${game.id}/scoreboard`)).statusCode).toBe(200)
    await player.agent.post(`/api/game/${game.id}/challenges/${c.id}`, { flag: 'wrong' })
    await player.agent.post(`/api/game/${game.id}/challenges/${c.id}`, { flag: 'flag{metrics}' })
    const text = await eventually(async () => {
      const body = (await local().get('/metrics')).body
      expect(sample(body, 'pennant_scoreboard_rebuild_seconds_count', 'kind="incremental"')).toBe(1)
      return body
    })
    expect(sample(text, 'pennant_judge_verdicts_total', 'result="Accepted"')).toBe(1)
    expect(sample(text, 'pennant_judge_verdicts_total', 'result="WrongAnswer"')).toBe(1)
    expect(sample(text, 'pennant_judge_lag_seconds_count')).toBe(2)
    expect(sample(text, 'pennant_judge_lag_seconds_sum')).toBeLessThan(5)
    expect(sample(text, 'pennant_judge_queue_depth', 'state="queued"')).toBe(0)
    expect(sample(text, 'pennant_judge_queue_depth', 'state="judging"')).toBe(0)
    expect(sample(text, 'pennant_scoreboard_rebuild_seconds_count', 'kind="full"')).toBeGreaterThanOrEqual(1)
    expect(sample(text, 'pennant_hub_connections', 'hub="user"')).toBe(0)
  })
})

describe('GET /metrics with METRICS_TOKEN', () => {
  const token = 'a-long-metrics-token-for-tests'
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp({ METRICS_TOKEN: token })
  })
  afterAll(async () => t?.close())

  it('wants the token as a bearer, from anywhere', async () => {
    const remote = new Agent(t.app, '203.0.113.10')
    expect((await remote.get('/metrics', { authorization: `Bearer ${token}` })).statusCode).toBe(200)
    const wrong = await remote.get('/metrics', { authorization: 'Bearer a-long-metrics-token-for-test' })
    expect(wrong.statusCode).toBe(401)
    expect(wrong.json()).toEqual({ title: expect.any(String), status: 401 })
    expect((await remote.get('/metrics')).statusCode).toBe(401)
    // Once a token is set, being local is not enough.
    expect((await new Agent(t.app, '127.0.0.1').get('/metrics')).statusCode).toBe(401)
  })
})

describe('health', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp()
  })
  afterAll(async () => t?.close())

  it('tells live from ready; ready says 503 while draining, /healthz stays as it was', async () => {
    const agent = new Agent(t.app)
    expect((await agent.get('/healthz')).json()).toEqual({ status: 'Healthy' })
    expect((await agent.get('/healthz/live')).json()).toEqual({ status: 'Healthy' })
    const ready = await agent.get('/healthz/ready')
    expect(ready.statusCode).toBe(200)
    expect(ready.json()).toEqual({ status: 'Healthy' })
    expect(ready.headers.connection).not.toBe('close')

    t.app.ops.draining = true
    try {
      const draining = await agent.get('/healthz/ready')
      expect(draining.statusCode).toBe(503)
      expect(draining.json()).toEqual({ status: 'Draining' })
      expect((await agent.get('/healthz/live')).statusCode).toBe(200)
      expect((await agent.get('/healthz')).statusCode).toBe(200)
      // Every answer now asks the client to open its next request elsewhere.
      const config = await agent.get('/api/config')
      expect(config.statusCode).toBe(200)
      expect(config.headers.connection).toBe('close')
    } finally {
      t.app.ops.draining = false
    }
  })

  it('documents the new routes in the OpenAPI document', async () => {
    const doc = (await new Agent(t.app).get('/openapi/v1.json')).json()
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/metrics', '/healthz/live', '/healthz/ready']),
    )
  })
})
