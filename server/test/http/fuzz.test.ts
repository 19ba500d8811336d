import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { adminAgent, createChallenge, createGame, registeredUser } from '../factories.ts'
import type { Agent } from '../helpers/agent.ts'
import { Agent as AgentClass } from '../helpers/agent.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'

/**
 * Sends malformed input to every route of the OpenAPI document, as anonymous, user and admin
 * callers, and checks the server never answers 5xx and always answers errors in `{title, status}`.
 */
let t: TestApp
type Op = {
  method: string
  path: string
  body?: { properties?: Record<string, unknown> }
  multipart: boolean
}
const ops: Op[] = []
/** Ids of real rows, so that well-formed but odd bodies reach the services, not just a 404. */
const real: Record<string, string> = {}

beforeAll(async () => {
  t = await createTestApp()
  const admin = await adminAgent(t.app)
  const game = await createGame(admin)
  const challenge = await createChallenge(admin, game.id)
  await admin.post(`/api/edit/games/${game.id}/challenges/${challenge.id}/flags`, [{ flag: 'flag{fuzz}' }])
  const flag = (await admin.get(`/api/edit/games/${game.id}/challenges/${challenge.id}`)).json().flags[0]
  const notice = (await admin.post(`/api/edit/games/${game.id}/notices`, { content: 'hello' })).json()
  Object.assign(real, {
    id: String(game.id),
    cId: String(challenge.id),
    fId: String(flag.id),
    noticeId: String(notice.id),
  })
  const doc = (await t.app.inject({ url: '/openapi/v1.json' })).json()
  for (const [path, methods] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
    for (const [method, op] of Object.entries(methods)) {
      const content = op.requestBody?.content ?? {}
      ops.push({
        method: method.toUpperCase(),
        path,
        body: content['application/json']?.schema,
        multipart: Boolean(content['multipart/form-data']) || /avatar/.test(path),
      })
    }
  }
  // Deletions last, so the rows the other routes are fuzzed against still exist.
  ops.sort((a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'))
})
afterAll(() => t.close())

const WEIRD: unknown[] = [
  null,
  0,
  -1,
  1.5,
  1e308,
  -(2 ** 60),
  true,
  '',
  ' ',
  '\u0000',
  'x'.repeat(5000),
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '../../etc/passwd',
  '😀'.repeat(40),
  [],
  [1, 'a'],
  {},
  { nested: { deep: [null] } },
]
const PARAMS = [
  '1',
  '0',
  '-1',
  '99999999999999999999',
  'abc',
  '%00',
  '..%2F..',
  'x'.repeat(300),
  '😀',
  'ZZZZZZZZ',
]
const RAW_BODIES = [
  '{',
  '[',
  'null',
  '"str"',
  '123',
  'true',
  '{"a":1}',
  '\u0000\u0001',
  '{"__proto__":{"admin":true}}',
]

function fill(path: string, value: string) {
  return path.replace(/\{[^}]+\}/g, encodeURIComponent(value).replace(/%25/g, '%'))
}

/** The path with real ids where we have them. */
const fillReal = (path: string) => path.replace(/\{([^}]+)\}/g, (_, name: string) => real[name] ?? '1')

async function check(agent: Agent, opts: Parameters<Agent['request']>[0], label: string) {
  const res = await agent.request(opts)
  if (res.statusCode >= 500) throw new Error(`${label}: ${res.statusCode} ${res.body.slice(0, 200)}`)
  if (res.statusCode >= 400) {
    const body = res.json()
    expect(typeof body.title, label).toBe('string')
    expect(typeof body.status, label).toBe('number')
  }
  return res.statusCode
}

async function fuzz(makeAgent: () => Promise<Agent>) {
  let sent = 0
  for (const op of ops) {
    const agent = await makeAgent()
    const label = (extra: string) => `${op.method} ${op.path} ${extra}`
    for (const p of PARAMS) {
      await check(agent, { method: op.method as 'GET', url: fill(op.path, p) }, label(`param=${p}`))
      sent++
    }
    const url = fillReal(op.path)
    await check(
      agent,
      { method: op.method as 'GET', url: `${url}?count=-5&skip=abc&limit=1e9&hint=%00` },
      label('query'),
    )
    if (op.method === 'GET') continue
    for (const raw of RAW_BODIES) {
      await check(
        agent,
        { method: op.method as 'POST', url, payload: raw, headers: { 'content-type': 'application/json' } },
        label(`raw=${raw}`),
      )
      sent++
    }
    await check(
      agent,
      {
        method: op.method as 'POST',
        url,
        payload: 'a=1',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      },
      label('form'),
    )
    await check(
      agent,
      {
        method: op.method as 'POST',
        url,
        payload: '--x\r\nbroken',
        headers: { 'content-type': 'multipart/form-data; boundary=x' },
      },
      label('broken multipart'),
    )
    for (const key of Object.keys(op.body?.properties ?? { any: 1 })) {
      for (const value of WEIRD) {
        await check(
          agent,
          {
            method: op.method as 'POST',
            url,
            payload: JSON.stringify({ [key]: value }),
            headers: { 'content-type': 'application/json' },
          },
          label(`${key}=${JSON.stringify(value).slice(0, 40)}`),
        )
        sent++
      }
    }
  }
  return sent
}

// Thousands of requests each: beside the e2e run (npm test runs the suites side by side) on a
// busy 2-core machine, one can take longer than the default 30 s without anything being wrong.
describe('malformed input to every route', { timeout: 120_000 }, () => {
  it('never yields a 5xx to anonymous callers', async () => {
    expect(await fuzz(async () => new AgentClass(t.app))).toBeGreaterThan(500)
  })

  it('never yields a 5xx to a signed-in user', async () => {
    expect(await fuzz(async () => (await registeredUser(t.app)).agent)).toBeGreaterThan(500)
  })

  it('never yields a 5xx to an admin', async () => {
    expect(await fuzz(() => adminAgent(t.app))).toBeGreaterThan(500)
  })
})
