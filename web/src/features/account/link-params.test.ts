import { describe, expect, it } from 'vitest'
import { decodeBase64Text, readLinkParams } from './link-params'

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64')

describe(decodeBase64Text, () => {
  it('decodes base64 of an address', () => {
    expect(decodeBase64Text(b64('alice@example.org'))).toBe('alice@example.org')
  })

  it('decodes UTF-8 beyond ASCII', () => {
    expect(decodeBase64Text(b64('jürgen@bücher.de'))).toBe('jürgen@bücher.de')
  })

  it('accepts the URL-safe alphabet, missing padding and "+" read as a space', () => {
    const raw = b64('a?>~b@x.io')
    expect(decodeBase64Text(raw.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, ''))).toBe(
      'a?>~b@x.io',
    )
    expect(decodeBase64Text(b64('>>>?@x.y').replace(/\+/g, ' '))).toBe('>>>?@x.y')
  })

  it.each([['not base64!'], ['a'], [''], [Buffer.from([0xff, 0xfe]).toString('base64')]])(
    'rejects %j',
    (value) => {
      expect(decodeBase64Text(value)).toBeNull()
    },
  )
})

describe(readLinkParams, () => {
  it('keeps the raw values to post back and decodes the address', () => {
    const search = new URLSearchParams({ token: 'dG9rZW4=', email: b64('bob@example.org') })
    expect(readLinkParams(search)).toEqual({
      token: 'dG9rZW4=',
      email: b64('bob@example.org'),
      address: 'bob@example.org',
    })
  })

  it('is null when a parameter is missing', () => {
    expect(readLinkParams(new URLSearchParams('token=abc'))).toBeNull()
    expect(readLinkParams(new URLSearchParams('email=abc'))).toBeNull()
  })
})
