import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import cookie from '@fastify/cookie'
import Fastify, { type FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cultureOf, loadTitles, toCulture } from './culture.ts'
import { errorHandlerPlugin } from './error-handler.ts'
import { fail } from './errors.ts'

describe(cultureOf, () => {
  it('takes ?culture= first, then the culture cookie, then Accept-Language', () => {
    const all = {
      query: { culture: 'ja-JP' },
      cookies: { '.AspNetCore.Culture': 'c=ko-KR|uic=ko-KR' },
      acceptLanguage: 'ru',
    }
    expect(cultureOf(all)).toBe('ja-JP')
    expect(cultureOf({ ...all, query: {} })).toBe('ko-KR')
    expect(cultureOf({ ...all, query: {}, cookies: {} })).toBe('ru-RU')
  })

  it('weighs Accept-Language by q and skips what is not supported', () => {
    expect(cultureOf({ acceptLanguage: 'pt-BR, fr;q=0.5, de;q=0.8' })).toBe('de-DE')
    expect(cultureOf({ acceptLanguage: 'zh-Hant-HK,en;q=0.1' })).toBe('zh-TW')
    expect(cultureOf({ acceptLanguage: 'de;q=0, pt' })).toBe('en-US')
  })

  it('falls back to English for nothing usable, including injected values', () => {
    expect(cultureOf({})).toBe('en-US')
    expect(cultureOf({ query: { culture: '<script>' }, acceptLanguage: '*' })).toBe('en-US')
    expect(toCulture('fr-FR"><img')).toBeNull()
  })
})

describe('error titles in the request culture', () => {
  let app: FastifyInstance
  let dir: string

  beforeAll(async () => {
    // A fixture language directory, so the test does not depend on the translators' files.
    dir = mkdtempSync(path.join(tmpdir(), 'titles-'))
    mkdirSync(dir, { recursive: true })
    writeFileSync(
      path.join(dir, 'zh-CN.json'),
      JSON.stringify({
        Team_NotFound: '队伍不存在',
        RateLimit_TooManyRequests: '请求过多，请 {0} 秒后重试',
        Route_NotFound: '没有这个 API 路由',
      }),
    )
    writeFileSync(path.join(dir, 'xx-XX.json'), JSON.stringify({ Team_NotFound: 'ignored' }))
    app = Fastify()
    await app.register(cookie)
    await app.register(errorHandlerPlugin, { localesDir: dir, audit: { write() {} } })
    app.get('/team', async () => {
      throw fail('Team_NotFound')
    })
    app.get('/slow', async () => {
      throw fail('RateLimit_TooManyRequests', { params: [7] })
    })
    app.get('/login', async () => {
      throw fail('Auth_LoginRequired')
    })
    await app.ready()
  })
  afterAll(async () => {
    await app.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('answers in Chinese when the language file has the key, placeholders filled', async () => {
    const team = await app.inject({ url: '/team', headers: { 'accept-language': 'zh-CN,zh;q=0.9' } })
    expect(team.statusCode).toBe(404)
    expect(team.json()).toEqual({ title: '队伍不存在', status: 404 })
    expect(team.headers['content-language']).toBe('zh-CN')
    const slow = await app.inject({ url: '/slow?culture=zh-CN' })
    expect(slow.json().title).toBe('请求过多，请 7 秒后重试')
  })

  it('falls back to English for a key the language lacks and by default', async () => {
    const login = await app.inject({ url: '/login', headers: { 'accept-language': 'zh-CN' } })
    expect(login.json()).toEqual({ title: 'Please log in first', status: 401 })
    const team = await app.inject({ url: '/team' })
    expect(team.json().title).toBe('Team not found')
    expect(team.headers['content-language']).toBe('en-US')
  })

  it('translates the framework 404 too, and honours the culture cookie', async () => {
    const res = await app.inject({
      url: '/nothing',
      cookies: { '.AspNetCore.Culture': 'c=zh-CN|uic=zh-CN' },
    })
    expect(res.json()).toEqual({ title: '没有这个 API 路由', status: 404 })
    expect(res.headers['content-language']).toBe('zh-CN')
  })

  it('loads only known cultures', () => {
    expect([...loadTitles(dir).keys()]).toEqual(['zh-CN'])
    expect(loadTitles(path.join(dir, 'missing')).size).toBe(0)
  })
})
