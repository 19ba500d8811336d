import { describe, expect, it } from 'vitest'
import { bridgeName } from './engine.ts'
import { BLOCKED_V4, bridgeOf, rulesAsCommands, rulesFor } from './isolation.ts'

describe(bridgeName, () => {
  it('is a valid interface name, stable per network, and tells the two networks apart', () => {
    const name = bridgeName('pennant-challenges-with-a-rather-long-name', true)
    expect(name.length).toBeLessThanOrEqual(15)
    expect(name).toMatch(/^pne-[0-9a-f]{10}$/)
    expect(bridgeName('pennant-challenges-with-a-rather-long-name', true)).toBe(name)
    expect(bridgeName('pennant-challenges-noegress', false)).toMatch(/^pnn-/)
  })

  it('falls back to Docker’s own name for networks made before bridges were named', () => {
    expect(bridgeOf({ Name: 'x', Id: '0123456789abcdef', Options: {} })).toEqual({
      iface: 'br-0123456789ab',
      ipv6: false,
    })
  })
})

describe(rulesFor, () => {
  const egress = { network: 'n', iface: 'pne-x', egress: true, ipv6: false }
  const closed = { network: 'n-noegress', iface: 'pnn-x', egress: false, ipv6: false }

  it('refuses new connections to the host, letting replies through', () => {
    expect(rulesFor(egress, 'v4', []).input).toEqual([
      '-i',
      'pne-x',
      '-m',
      'conntrack',
      '!',
      '--ctstate',
      'ESTABLISHED,RELATED',
      '-j',
      'REJECT',
    ])
  })

  it('refuses private ranges with egress, allowed ranges first, and everything without', () => {
    const body = rulesFor(egress, 'v4', ['10.9.0.0/16', 'fd00::/8']).body
    expect(body[0]).toEqual(['-d', '10.9.0.0/16', '-j', 'RETURN'])
    expect(body.slice(1).map((r) => r[1])).toEqual(BLOCKED_V4)
    expect(body.flat()).not.toContain('fd00::/8')
    expect(rulesFor(closed, 'v4', ['10.9.0.0/16']).body).toEqual([['-j', 'REJECT']])
  })

  it('writes the same rules as commands for operators', () => {
    const lines = rulesAsCommands([egress, closed], [])
    expect(lines).toContain('iptables -A PENNANT-pnn-x -j REJECT')
    expect(lines).toContain('iptables -I DOCKER-USER 1 -j PENNANT-ISOLATE')
    expect(lines.some((l) => l.startsWith('ip6tables'))).toBe(false)
  })
})
