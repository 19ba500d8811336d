import { describe, expect, it } from 'vitest'
import { entryHref, proxyUrl, renewalOpensAt } from './container'

describe(entryHref, () => {
  it.each([
    ['127.0.0.1:31337', 'http://127.0.0.1:31337'],
    ['ctf.example.org:443', 'http://ctf.example.org:443'],
    ['https://ctf.example.org/x', 'https://ctf.example.org/x'],
    ['wss://ctf.example.org/proxy/abc', null],
    ['tcp://10.0.0.1:9000', null],
  ])('opens %s as %s', (entry, href) => {
    expect(entryHref(entry)).toBe(href)
  })
})

describe(renewalOpensAt, () => {
  it('is the window before the stop time', () => {
    expect(renewalOpensAt(1_000_000, 10)).toBe(400_000)
  })
})

describe(proxyUrl, () => {
  const id = '0f8fad5b-d9cb-469f-a165-70867728950e'
  it('points at this site’s proxy, secure when the page is', () => {
    expect(proxyUrl(id, { protocol: 'https:', host: 'ctf.example.org' })).toBe(
      `wss://ctf.example.org/api/proxy/${id}`,
    )
    expect(proxyUrl(id, { protocol: 'http:', host: '127.0.0.1:8080' })).toBe(
      `ws://127.0.0.1:8080/api/proxy/${id}`,
    )
  })
})
