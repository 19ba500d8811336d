import { describe, expect, it } from 'vitest'
import { loadConfig } from './index.ts'

describe('loadConfig: containers', () => {
  it('finds the engine by itself and tells where entries point', () => {
    const c = loadConfig({}).containers
    expect(c).toMatchObject({
      backend: 'auto',
      publicHost: '127.0.0.1',
      publicHostFrom: 'default',
      network: 'pennant-challenges',
      portMapping: 'Default',
      proxy: { connectionLimit: 32, maxConnectionMs: 30 * 60_000 },
      trafficCapture: false,
    })
    expect(loadConfig({ CONTAINER_PORT_MAPPING: 'platformproxy' }).containers.portMapping).toBe(
      'PlatformProxy',
    )
  })
  it('takes the public host from PUBLIC_URL, and CONTAINER_PUBLIC_HOST over it', () => {
    expect(loadConfig({ PUBLIC_URL: 'https://ctf.example.org/' }).containers).toMatchObject({
      publicHost: 'ctf.example.org',
      publicHostFrom: 'PUBLIC_URL',
    })
    expect(
      loadConfig({ PUBLIC_URL: 'https://ctf.example.org', CONTAINER_PUBLIC_HOST: 'chal.example.org' })
        .containers,
    ).toMatchObject({ publicHost: 'chal.example.org', publicHostFrom: 'CONTAINER_PUBLIC_HOST' })
  })
  it('leaves the start concurrency to the engine unless it is set', () => {
    expect(loadConfig({}).containers.startConcurrency).toBeNull()
    expect(loadConfig({ CONTAINER_START_CONCURRENCY: '3' }).containers.startConcurrency).toBe(3)
  })
  it('refuses settings it does not know, naming them', () => {
    expect(() => loadConfig({ CONTAINER_BACKEND: 'kubernetes' })).toThrow(/CONTAINER_BACKEND/)
    expect(() => loadConfig({ CONTAINER_SWARM_PUBLISH: 'mesh' })).toThrow(/CONTAINER_SWARM_PUBLISH/)
    expect(() => loadConfig({ CONTAINER_NETWORK: 'bad name!' })).toThrow(/CONTAINER_NETWORK/)
    expect(() => loadConfig({ CONTAINER_START_CONCURRENCY: '0' })).toThrow(/CONTAINER_START_CONCURRENCY/)
    expect(() => loadConfig({ CONTAINER_PORT_MAPPING: 'Proxy' })).toThrow(/CONTAINER_PORT_MAPPING/)
    expect(() => loadConfig({ CONTAINER_PROXY_MAX_SECONDS: '0' })).toThrow(/CONTAINER_PROXY_MAX_SECONDS/)
    expect(() => loadConfig({ CONTAINER_EGRESS_ALLOW: '10.0.0.0/33' })).toThrow(/CONTAINER_EGRESS_ALLOW/)
    expect(() => loadConfig({ CONTAINER_EGRESS_ALLOW: 'intranet' })).toThrow(/CONTAINER_EGRESS_ALLOW/)
  })
})

describe('loadConfig: CONTAINER_EGRESS_ALLOW', () => {
  it('reads CIDRs and single addresses, v4 and v6; none by default', () => {
    expect(loadConfig({}).containers.egressAllow).toEqual([])
    expect(
      loadConfig({ CONTAINER_EGRESS_ALLOW: ' 10.1.2.0/24, 192.168.1.5 ,fd00::/64' }).containers.egressAllow,
    ).toEqual(['10.1.2.0/24', '192.168.1.5/32', 'fd00::/64'])
  })
})

describe('loadConfig: operations', () => {
  it('keeps /metrics local and shuts down within 10 s by default', () => {
    expect(loadConfig({}).ops).toEqual({
      metricsToken: undefined,
      shutdownDelayMs: 0,
      shutdownTimeoutMs: 10_000,
    })
    expect(
      loadConfig({ METRICS_TOKEN: ' 0123456789abcdef ', SHUTDOWN_DELAY: '5', SHUTDOWN_TIMEOUT: '25' }).ops,
    ).toEqual({ metricsToken: '0123456789abcdef', shutdownDelayMs: 5000, shutdownTimeoutMs: 25_000 })
  })
  it('refuses a guessable metrics token and shutdown times out of range', () => {
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN/)
    expect(() => loadConfig({ SHUTDOWN_DELAY: '-1' })).toThrow(/SHUTDOWN_DELAY/)
    expect(() => loadConfig({ SHUTDOWN_TIMEOUT: '0' })).toThrow(/SHUTDOWN_TIMEOUT/)
    expect(() => loadConfig({ SHUTDOWN_TIMEOUT: 'soon' })).toThrow(/SHUTDOWN_TIMEOUT/)
  })
})
