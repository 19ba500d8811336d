import { describe, expect, it } from 'vitest'
import { networkName, networkOptions, protocolsFor, toContainerError } from './engine.ts'
import { ContainerError } from './index.ts'

describe(protocolsFor, () => {
  it('publishes TCP for a port the image does not declare', () => {
    expect(protocolsFor(new Set(), 80)).toEqual(['tcp'])
    expect(protocolsFor(new Set(['9090/tcp']), 80)).toEqual(['tcp'])
  })
  it('adds UDP when the image declares the port on both', () => {
    expect(protocolsFor(new Set(['53/tcp', '53/udp']), 53)).toEqual(['tcp', 'udp'])
  })
  it('publishes UDP alone when that is all the image declares for the port', () => {
    expect(protocolsFor(new Set(['53/udp', '80/tcp']), 53)).toEqual(['udp'])
  })
})

describe(networkOptions, () => {
  it('never lets containers talk to each other, and masquerades only with egress', () => {
    expect(networkOptions('n', true)).toMatchObject({
      'com.docker.network.bridge.enable_icc': 'false',
      'com.docker.network.bridge.enable_ip_masquerade': 'true',
    })
    expect(networkOptions('n', false)['com.docker.network.bridge.enable_ip_masquerade']).toBe('false')
    expect(networkName('chal', false)).toBe('chal-noegress')
  })
})

describe(toContainerError, () => {
  it('tells an absent engine from refused limits and failed starts', () => {
    expect(
      toContainerError(Object.assign(new Error('x'), { code: 'ECONNREFUSED' }), 'starting').failure,
    ).toBe('Unreachable')
    const refused = { statusCode: 400, json: { message: 'Range of CPUs is from 0.01 to 2.00' } }
    expect(toContainerError(refused, 'creating', { creating: true })).toMatchObject({
      failure: 'InvalidLimits',
      detail: 'Range of CPUs is from 0.01 to 2.00',
    })
    expect(toContainerError(refused, 'starting').failure).toBe('StartFailed')
    const known = new ContainerError('ImageNotFound', 'x')
    expect(toContainerError(known, 'anything')).toBe(known)
  })
})
