import { readFileSync } from 'node:fs'
import { BlockList, isIP } from 'node:net'
import { and, eq, like } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { logs } from '../../src/db/schema.ts'
import { registeredUser } from '../factories.ts'
import { Agent } from '../helpers/agent.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'

// The compose deployment (deploy/compose.yaml) trusts exactly its own nginx for X-Forwarded-For.
const compose = readFileSync(new URL('../../../deploy/compose.yaml', import.meta.url), 'utf8')
/** The value a `${VAR:-default}` setting takes when VAR is unset. */
const setting = (pattern: RegExp) => {
  const raw = compose.match(pattern)?.[1]?.trim() ?? ''
  return raw.replace(/^\$\{[A-Z_]+:-(.*)\}$/, '$1')
}
const trusted = setting(/^\s*TRUST_PROXY:\s*(.+)$/m)
const nginxIp = setting(/^\s*ipv4_address:\s*(.+)$/m)
const subnet = setting(/^\s*- subnet:\s*(.+)$/m)
const dynamic = setting(/^\s*ip_range:\s*(.+)$/m)

describe('deploy/compose.yaml', () => {
  it('trusts one address, nginx’s fixed one, outside the range other containers get', () => {
    expect(isIP(trusted), `TRUST_PROXY is ${trusted}`).toBe(4)
    expect(trusted).toBe(nginxIp)
    expect(compose.match(/TRUST_PROXY:/g)).toHaveLength(1)
    const [net, bits] = subnet.split('/')
    const inSubnet = new BlockList()
    inSubnet.addSubnet(net!, Number(bits))
    expect(inSubnet.check(nginxIp)).toBe(true)
    const [rangeNet, rangeBits] = dynamic.split('/')
    const others = new BlockList()
    others.addSubnet(rangeNet!, Number(rangeBits))
    expect(others.check(nginxIp)).toBe(false)
  })
})

describe('a server that trusts only its proxy', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp({ TRUST_PROXY: trusted })
  })
  afterAll(() => t.close())

  const guess = (from: string, forwardedFor: string, userName: string, password: string) =>
    new Agent(t.app, from).request({
      method: 'POST',
      url: '/api/account/login',
      payload: JSON.stringify({ userName, password }),
      headers: { 'content-type': 'application/json', 'x-forwarded-for': forwardedFor },
    })

  it('limits wrong passwords per real address, whatever X-Forwarded-For a client forges', async () => {
    // Through nginx (which appends what it saw), from another container, from the gateway.
    for (const [from, last] of [
      [nginxIp, ', 10.213.77.1'],
      ['10.213.77.130', ''],
      ['192.168.1.20', ''],
    ] as const) {
      const { userName } = await registeredUser(t.app)
      const codes = []
      for (let i = 0; i < 12; i++) {
        const forged = `203.0.113.${i + 1}${last}`
        codes.push((await guess(from, forged, userName, `Wrong${i}x`)).statusCode)
      }
      expect(codes, from).toEqual([401, 401, 401, 401, 401, ...Array(7).fill(429)])
    }
  })

  it('writes the address nginx saw to the admin log, not the forged one', async () => {
    const { userName } = await registeredUser(t.app)
    await guess(nginxIp, '203.0.113.99, 198.51.100.7', userName, 'Wrong0x')
    await guess('10.213.77.131', '203.0.113.98', userName, 'Wrong1x')
    await t.app.deps.services.audit.flush()
    const rows = await t.app.deps.db
      .select({ ip: logs.remoteIp })
      .from(logs)
      .where(and(like(logs.message, `Wrong password for ${userName}`), eq(logs.logger, 'account')))
      .orderBy(logs.id)
    expect(rows.map((r) => r.ip)).toEqual(['198.51.100.7', '10.213.77.131'])
  })
})
