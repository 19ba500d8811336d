import { describe, expect, it } from 'vitest'
import { publishedPort } from './docker.ts'
import { networkName, networkOptions, outputLines, protocolsFor, toContainerError } from './engine.ts'
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

describe(outputLines, () => {
  /** One frame of the engine's multiplexed log stream: stream, three zeros, length, bytes. */
  const frame = (stream: 1 | 2, text: string) => {
    const body = Buffer.from(text)
    const head = Buffer.alloc(8)
    head[0] = stream
    head.writeUInt32BE(body.length, 4)
    return Buffer.concat([head, body])
  }

  it('reads stdout and stderr frames in order, keeping the last lines', () => {
    const raw = Buffer.concat([frame(1, 'one\ntwo\n'), frame(2, 'oops\n'), frame(1, 'three\n')])
    expect(outputLines(raw, 10)).toEqual(['one', 'two', 'oops', 'three'])
    expect(outputLines(raw, 2)).toEqual(['oops', 'three'])
  })

  it('takes unframed output (a terminal) as it is, without colours or control characters', () => {
    expect(outputLines(Buffer.from('\x1b[31mred\x1b[0m\r\nbell\x07 tab\there\n'), 5)).toEqual([
      'red',
      'bell tab\there',
    ])
    expect(outputLines(Buffer.alloc(0), 5)).toEqual([])
  })

  it('cuts very long lines', () => {
    const [line] = outputLines(frame(1, 'x'.repeat(5000)), 1)
    expect(line).toHaveLength(2001)
    expect(line!.endsWith('…')).toBe(true)
  })
})

describe(publishedPort, () => {
  it('answers the one host port every binding shares', () => {
    const both = [
      { HostIp: '0.0.0.0', HostPort: '40000' },
      { HostIp: '::', HostPort: '40000' },
    ]
    expect(publishedPort({ '8080/tcp': both, '8080/udp': both, '9090/tcp': null }, 8080)).toBe(40000)
  })

  it('refuses bindings that disagree (or none), saying which', () => {
    const split = {
      '8080/tcp': [
        { HostIp: '0.0.0.0', HostPort: '32786' },
        { HostIp: '::', HostPort: '32785' },
      ],
    }
    expect(() => publishedPort(split, 8080)).toThrow(ContainerError)
    expect(() => publishedPort(split, 8080)).toThrow(/0\.0\.0\.0:32786, :::32785/)
    expect(() => publishedPort({}, 8080)).toThrow(/no host port/)
  })
})
