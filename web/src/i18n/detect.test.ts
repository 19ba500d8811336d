import { describe, expect, it } from 'vitest'
import { detectLanguage, toSupported } from './detect'

describe(toSupported, () => {
  it.each([
    ['en-US', 'en-US'],
    ['fr-fr', 'fr-FR'],
    ['fr', 'fr-FR'],
    ['de-AT', 'de-DE'],
    ['zh', 'zh-CN'],
    ['zh-Hant-HK', 'zh-TW'],
    ['zh_TW', 'zh-TW'],
    ['ja', 'ja-JP'],
  ])('maps %s to %s', (tag, expected) => {
    expect(toSupported(tag)).toBe(expected)
  })

  it('knows nothing of unsupported languages', () => {
    expect(toSupported('pt-BR')).toBeNull()
  })

  it.each([
    '<script>alert(1)</script>',
    'en-US"><img src=x onerror=alert(1)>',
    "fr-FR';alert(1)//",
    'javascript:alert(1)',
    'en US',
    `en-${'x'.repeat(40)}`,
  ])('discards the injection-looking value %s', (value) => {
    expect(toSupported(value)).toBeNull()
  })
})

describe(detectLanguage, () => {
  it('takes the query first, then cookie, local storage, session storage, browser, html', () => {
    expect(detectLanguage({ query: 'ja', cookie: 'fr', navigator: ['de'] })).toBe('ja-JP')
    expect(detectLanguage({ cookie: 'fr', localStorage: 'ko', navigator: ['de'] })).toBe('fr-FR')
    expect(detectLanguage({ localStorage: 'ko', sessionStorage: 'ru' })).toBe('ko-KR')
    expect(detectLanguage({ sessionStorage: 'ru', navigator: ['de'] })).toBe('ru-RU')
    expect(detectLanguage({ navigator: ['pt-BR', 'es-MX'], htmlLang: 'en-US' })).toBe('es-ES')
    expect(detectLanguage({ htmlLang: 'vi' })).toBe('vi-VN')
  })

  it('skips an injected value and goes on to the next source', () => {
    expect(detectLanguage({ query: '<svg onload=alert(1)>', cookie: 'id' })).toBe('id-ID')
  })

  it('falls back to English', () => {
    expect(detectLanguage({})).toBe('en-US')
    expect(detectLanguage({ navigator: ['pt-BR'] })).toBe('en-US')
  })
})
