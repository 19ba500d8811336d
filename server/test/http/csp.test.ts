import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Agent } from '../helpers/agent.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'

// A page like the built client's, plus the inline scripts a build may add (one already carrying
// Vite's `%nonce%` placeholder).
const PAGE = `<!doctype html><html><head>
<script type="module" crossorigin src="/static/index.abc.js"></script>
<script>window.early = 1</script>
<script nonce="%nonce%">window.stamped = 1</script>
<link rel="stylesheet" href="/static/core.css">
</head><body><div id="root"></div></body></html>`

let webDir: string
let t: TestApp
let turnstile: TestApp
beforeAll(async () => {
  webDir = await mkdtemp(path.join(tmpdir(), 'pennant-web-'))
  await writeFile(path.join(webDir, 'index.html'), PAGE)
  t = await createTestApp({ WEB_DIR: webDir })
  turnstile = await createTestApp({
    WEB_DIR: webDir,
    CAPTCHA_PROVIDER: 'CloudflareTurnstile',
    TURNSTILE_SITE_KEY: 'site',
  })
})
afterAll(async () => {
  await t?.close()
  await turnstile?.close()
  await rm(webDir, { recursive: true, force: true })
})

/** The policy as directive → sources. */
function directives(header: unknown): Record<string, string[]> {
  expect(typeof header).toBe('string')
  const out: Record<string, string[]> = {}
  for (const part of (header as string).split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/)
    if (name) out[name] = sources
  }
  return out
}

describe('the web page’s Content-Security-Policy', () => {
  it.each(['/', '/account/login', '/admin/settings', '/index.html'])(
    'is sent with the page at %s',
    async (url) => {
      const res = await new Agent(t.app).get(url)
      expect(res.statusCode).toBe(200)
      expect(res.headers['content-type']).toMatch(/^text\/html/)
      const csp = directives(res.headers['content-security-policy'])
      expect(csp).toMatchObject({
        'default-src': ["'self'"],
        'style-src': ["'self'", "'unsafe-inline'"],
        'img-src': ["'self'", 'data:', 'blob:', 'https:'],
        'connect-src': ["'self'", 'http://127.0.0.1:*'],
        'worker-src': ["'self'"],
        'frame-src': ["'self'"],
        'frame-ancestors': ["'none'"],
        'object-src': ["'none'"],
        'base-uri': ["'self'"],
        'form-action': ["'self'"],
      })
      expect(csp['script-src']).toEqual(["'self'", expect.stringMatching(/^'nonce-[A-Za-z0-9+/]{22}==/)])
      expect(res.headers['x-content-type-options']).toBe('nosniff')
      expect(res.headers['x-frame-options']).toBe('DENY')
      expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin')
    },
  )

  it('stamps a fresh nonce on every script of the page, and never allows inline scripts otherwise', async () => {
    const seen = new Set<string>()
    for (let i = 0; i < 3; i++) {
      const res = await new Agent(t.app).get('/')
      const csp = directives(res.headers['content-security-policy'])
      const nonce = csp['script-src']![1]!.slice("'nonce-".length, -1)
      const tags = res.body.match(/<script\b[^>]*>/g) ?? []
      expect(tags).toHaveLength(3)
      for (const tag of tags) expect(tag).toContain(` nonce="${nonce}"`)
      expect(res.body).not.toContain('%nonce%')
      expect(csp['script-src']).not.toContain("'unsafe-inline'")
      expect(csp['script-src']).not.toContain("'unsafe-eval'")
      // A nonce in style-src would switch 'unsafe-inline' off for Mantine's <style> elements.
      expect(csp['style-src']!.join(' ')).not.toContain('nonce')
      seen.add(nonce)
    }
    expect(seen.size).toBe(3)
  })

  it('admits Cloudflare Turnstile only when it is the captcha', async () => {
    const plain = directives((await new Agent(t.app).get('/')).headers['content-security-policy'])
    expect(JSON.stringify(plain)).not.toContain('cloudflare')
    const res = await new Agent(turnstile.app).get('/account/login')
    const csp = directives(res.headers['content-security-policy'])
    expect(csp['script-src']).toContain('https://challenges.cloudflare.com')
    expect(csp['frame-src']).toEqual(["'self'", 'https://challenges.cloudflare.com'])
    expect(csp['connect-src']).toEqual(["'self'", 'http://127.0.0.1:*'])
  })

  it('is not the API’s business: JSON answers carry no page policy', async () => {
    for (const url of ['/api/config', '/api/no/such/route']) {
      const res = await new Agent(t.app).get(url)
      expect(res.headers['content-type']).toMatch(/^application\/json/)
      expect(res.headers['content-security-policy']).toBeUndefined()
    }
  })

  it('leaves /favicon.webp to its own route', async () => {
    const res = await new Agent(t.app).get('/favicon.webp')
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toBe('image/webp')
  })
})
