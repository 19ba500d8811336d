import type { Page } from '@playwright/test'
import { ApiClient, expect, harnessEnv, test } from '../harness/fixtures.ts'

// The page's Content-Security-Policy must not get in the client's way: every screen loads
// without a single violation, the captcha's worker included, while an injected script is refused.

interface Violation {
  directive: string
  blocked: string
  sample: string
}

/** Records CSP violations the page reports, and the console's CSP complaints. */
async function watchCsp(page: Page) {
  const messages: string[] = []
  page.on('console', (msg) => {
    if (/Content Security Policy|Refused to/i.test(msg.text())) messages.push(msg.text())
  })
  await page.addInitScript(() => {
    const seen: Violation[] = []
    ;(window as unknown as { cspViolations: Violation[] }).cspViolations = seen
    document.addEventListener('securitypolicyviolation', (e) =>
      seen.push({ directive: e.violatedDirective, blocked: e.blockedURI, sample: e.sample }),
    )
  })
  return async () => ({
    events: await page.evaluate(() => (window as unknown as { cspViolations: Violation[] }).cspViolations),
    console: messages,
  })
}

/** Opens `path` and checks the policy came with the page. */
async function open(page: Page, path: string) {
  const res = await page.goto(path)
  const csp = res?.headers()['content-security-policy'] ?? ''
  expect(csp).toContain("script-src 'self' 'nonce-")
  expect(csp).toContain("frame-ancestors 'none'")
}

test('the home page loads without CSP violations, favicon and same-origin WebSocket included', async ({
  page,
}) => {
  const violations = await watchCsp(page)
  const favicon = page.waitForResponse((r) => new URL(r.url()).pathname === '/favicon.webp')
  await open(page, '/')
  await expect(page.getByRole('heading', { name: 'Latest posts' })).toBeVisible()
  expect((await favicon).status()).toBe(200)
  // Live updates will use a WebSocket to the same origin; the policy must let it try.
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        const ws = new WebSocket(`${location.origin.replace(/^http/, 'ws')}/hub/user`)
        ws.onerror = () => resolve()
        ws.onclose = () => resolve()
      }),
  )
  expect(await violations()).toEqual({ events: [], console: [] })
})

test('the login page runs the proof-of-work captcha in its worker without CSP violations', async ({
  page,
  adminApi,
}) => {
  await adminApi.setAccountPolicy({ useCaptcha: true })
  expect(await adminApi.get('/api/captcha')).toEqual({ type: 'HashPow', siteKey: '' })
  const violations = await watchCsp(page)
  await open(page, '/account/login')
  await expect(page.getByRole('heading', { level: 1, name: 'Log in' })).toBeVisible()
  const status = page.getByRole('status').filter({ hasText: /Check passed|not a robot/ })
  await expect(status).toHaveText('Check passed', { timeout: 20_000 })
  expect(await violations()).toEqual({ events: [], console: [] })
})

test('admin pages load without CSP violations', async ({ browser }) => {
  const context = await browser.newContext({ baseURL: harnessEnv().baseUrl })
  try {
    await new ApiClient(context.request).signIn('Admin', harnessEnv().adminPassword)
    const page = await context.newPage()
    const violations = await watchCsp(page)
    await open(page, '/admin/settings')
    await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible()
    await open(page, '/admin/games')
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
    expect(await violations()).toEqual({ events: [], console: [] })
  } finally {
    await context.close()
  }
})

test('an injected inline script is refused', async ({ page }) => {
  const violations = await watchCsp(page)
  await open(page, '/')
  await expect(page.getByRole('heading', { name: 'Latest posts' })).toBeVisible()
  await page.evaluate(() => {
    const script = document.createElement('script')
    script.textContent = 'window.injected = true'
    document.head.append(script)
  })
  await expect.poll(async () => (await violations()).events.length).toBe(1)
  expect((await violations()).events[0]).toMatchObject({ directive: 'script-src-elem', blocked: 'inline' })
  expect(await page.evaluate(() => (window as unknown as { injected?: boolean }).injected)).toBeUndefined()
})

// decisions.md item 13: markdown from organisers reaches the page sanitised, whatever it holds.
// The policy would refuse an inline script anyway; here nothing of it is even in the page.
test('markdown with scripts, event handlers and javascript: links is shown sanitised', async ({
  page,
  adminApi,
  uniqueName,
}) => {
  const title = uniqueName('Sanitised post')
  const postId = await adminApi.post<string>('/api/edit/posts', {
    title,
    summary: 'Markdown with hostile parts.',
    content: [
      'Hello **world**.',
      '<img src="/favicon.webp" alt="logo" onerror="window.pwned = 1" onload="window.pwned = 1">',
      '<script>window.pwned = 2</script>',
      '[click me](javascript:window.pwned=3)',
      '<iframe src="/"></iframe>',
    ].join('\n\n'),
    tags: [],
  })
  await open(page, `/posts/${postId}`)
  const article = page.getByRole('main')
  await expect(article.getByText('world')).toBeVisible()
  await expect(article.getByRole('img', { name: 'logo' })).toBeVisible()
  const html = await article.innerHTML()
  expect(html).not.toMatch(/onerror|onload|<script|<iframe|javascript:/i)
  await expect(article.getByText('click me')).toBeVisible()
  expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined()
})
