import { describe, expect, it } from 'vitest'
import { type EventDocument, renderBody, signatureHeaders } from './webhook-formats.ts'
import { blockedAddress, checkEndpointUrl, guardedLookup } from './webhook-http.ts'

const doc = (data: Record<string, unknown>): EventDocument => ({
  time: Date.UTC(2026, 0, 2, 3, 4, 5),
  game: { id: 7, title: 'Winter <CTF>' },
  data,
})

describe(renderBody, () => {
  it('keeps other people’s text from pinging or formatting in Discord', () => {
    const body = renderBody('discord', {
      id: 1,
      event: 'FirstBlood',
      doc: doc({ team: '@everyone *bold*', challenge: 'a_b' }),
    })
    expect(body.content).toBe('First blood: **@everyone \\*bold\\*** solved **a\\_b** in **Winter <CTF\\>**')
    expect(body.allowed_mentions).toEqual({ parse: [] })
    expect(body.embeds).toEqual([
      {
        title: 'FirstBlood',
        description: body.content,
        color: 0xe03131,
        timestamp: '2026-01-02T03:04:05.000Z',
        footer: { text: 'Winter <CTF>' },
      },
    ])
  })

  it('escapes Slack’s control characters, so <!channel> stays text', () => {
    const body = renderBody('slack', { id: 1, event: 'NewNotice', doc: doc({ content: '<!channel> a & b' }) })
    expect(body.text).toBe('New notice in *Winter &lt;CTF&gt;*: &lt;!channel&gt; a &amp; b')
  })

  it('gives the plain JSON event whole', () => {
    const d = doc({ phase: 'start', challenge: 'pwn1', team: 'T', image: 'img', reason: 'no image' })
    expect(renderBody('json', { id: 9, event: 'ContainerFailed', doc: d })).toEqual({
      id: 9,
      event: 'ContainerFailed',
      time: d.time,
      game: d.game,
      data: d.data,
    })
    expect(renderBody('slack', { id: 9, event: 'ContainerFailed', doc: d }).text).toBe(
      'A container of *pwn1* for *T* failed to start: no image',
    )
  })
})

describe(signatureHeaders, () => {
  it('signs "<timestamp>.<body>" with HMAC-SHA256 (a known vector)', () => {
    expect(signatureHeaders('whsec_test', '{"a":1}', 1700000000)).toEqual({
      'X-Pennant-Timestamp': '1700000000',
      'X-Pennant-Signature': 'sha256=38877139021993b830af32feea6e18a8da83eb2f6e49ee50bd9e4cf4ca4d3789',
    })
  })
})

describe(blockedAddress, () => {
  it.each([
    ['169.254.169.254', true],
    ['169.254.0.1', true],
    ['100.100.100.200', true],
    ['0.0.0.0', true],
    ['::', true],
    ['fe80::1', true],
    ['fd00:ec2::254', true],
    ['::ffff:169.254.169.254', true],
    ['::ffff:a9fe:a9fe', true],
    // The review's findings: compatible, NAT64, Oracle's and Azure's metadata.
    ['::169.254.169.254', true],
    ['::a9fe:a9fe', true],
    ['64:ff9b::a9fe:a9fe', true],
    ['64:ff9b::169.254.169.254', true],
    ['64:ff9b:1::1', true],
    ['192.0.0.192', true],
    ['168.63.129.16', true],
    // Loopback, private, shared and the rest of the special-purpose registries.
    ['127.0.0.1', true],
    ['127.255.255.254', true],
    ['10.0.0.5', true],
    ['172.16.0.1', true],
    ['172.31.255.255', true],
    ['192.168.1.1', true],
    ['100.64.0.1', true],
    ['198.18.0.1', true],
    ['192.0.2.1', true],
    ['224.0.0.1', true],
    ['255.255.255.255', true],
    ['::1', true],
    ['0:0:0:0:0:0:0:1', true],
    ['::ffff:7f00:1', true],
    ['::ffff:127.0.0.1', true],
    ['::ffff:8.8.8.8', true],
    ['2001:db8::1', true],
    ['2001::1', true],
    ['2002:a9fe:a9fe::1', true],
    ['fc00::1', true],
    ['fec0::1', true],
    ['ff02::1', true],
    ['100::1', true],
    ['FE80::1%eth0', true],
    // Public addresses pass.
    ['8.8.8.8', false],
    ['172.32.0.1', false],
    ['100.128.0.1', false],
    ['192.0.3.1', false],
    ['168.63.129.17', false],
    ['2606:4700:4700::1111', false],
    ['2001:4860:4860::8888', false],
  ])('%s → %s', (address, blocked) => expect(blockedAddress(address)).toBe(blocked))

  it('also judges URLs by their host, in every spelling the URL parser accepts', () => {
    for (const url of [
      'http://[fe80::1]:8080/',
      'http://METADATA.google.internal./x',
      'http://[::169.254.169.254]/',
      'http://[64:ff9b::a9fe:a9fe]/',
      'http://instance-data/latest/meta-data/',
      'http://instance-data.ec2.internal/',
      'http://metadata/computeMetadata/v1/',
      'http://192.0.0.192/',
      'http://168.63.129.16/',
      'http://2852039166/', // 169.254.169.254 as one number
      'http://0xa9.0xfe.0xa9.0xfe/',
      'http://0251.0376.0251.0376/',
      'http://127.1/',
      'http://localhost:8080/',
      'http://app.localhost/',
      'http://printer.local/',
      'http://[::]/',
      'http://[0:0:0:0:0:ffff:7f00:1]/',
    ]) {
      expect(checkEndpointUrl(url), url).toBe('blocked')
    }
    expect(checkEndpointUrl('https://hooks.slack.com/services/x')).toBeNull()
    expect(checkEndpointUrl('http://8.8.8.8/')).toBeNull()
    expect(checkEndpointUrl('gopher://x')).toBe('scheme')
  })

  it('lets through exactly the hosts an operator allowed', () => {
    const allowed = new Set(['127.0.0.1', 'chat.internal', '::1'])
    expect(checkEndpointUrl('http://127.0.0.1:9000/h', allowed)).toBeNull()
    expect(checkEndpointUrl('http://chat.internal/h', allowed)).toBeNull()
    expect(checkEndpointUrl('http://[::1]/h', allowed)).toBeNull()
    expect(checkEndpointUrl('http://127.0.0.2/h', allowed)).toBe('blocked')
    expect(checkEndpointUrl('http://169.254.169.254/', allowed)).toBe('blocked')
  })

  it('refuses a name when DNS answers with a blocked address (checked at send)', async () => {
    const err = await new Promise<NodeJS.ErrnoException | null>((resolve) =>
      guardedLookup('localhost', {}, (e) => resolve(e)),
    )
    expect(err?.code).toBe('EBLOCKED')
  })
})
