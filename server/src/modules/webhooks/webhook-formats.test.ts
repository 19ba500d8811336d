import { describe, expect, it } from 'vitest'
import { type EventDocument, renderBody, signatureHeaders } from './webhook-formats.ts'
import { blockedAddress, checkEndpointUrl } from './webhook-http.ts'

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
    ['127.0.0.1', false],
    ['10.0.0.5', false],
    ['192.168.1.1', false],
    ['::1', false],
    ['2001:db8::1', false],
    ['::ffff:7f00:1', false],
  ])('%s → %s', (address, blocked) => expect(blockedAddress(address)).toBe(blocked))

  it('also judges URLs by their host', () => {
    expect(checkEndpointUrl('http://[fe80::1]:8080/')).toBe('blocked')
    expect(checkEndpointUrl('http://METADATA.google.internal./x')).toBe('blocked')
    expect(checkEndpointUrl('https://hooks.slack.com/services/x')).toBeNull()
    expect(checkEndpointUrl('gopher://x')).toBe('scheme')
  })
})
