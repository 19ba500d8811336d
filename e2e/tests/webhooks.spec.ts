import { createHmac } from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import type { BrowserContext, Page } from '@playwright/test'
import { ApiClient, expect, harnessEnv, screenshot, test, uniqueName } from '../harness/fixtures.ts'

// Webhooks as an admin sets them up: switch them on, add an endpoint (a real HTTP listener in
// this test), keep the secret shown once, send a test, read the delivery log, see a notice
// arrive, and check every request's signature with the secret the screen showed.

test.describe.configure({ mode: 'serial' })

interface Received {
  headers: http.IncomingHttpHeaders
  body: string
}

let context: BrowserContext
let page: Page
let api: ApiClient
let server: http.Server
let url = ''
const received: Received[] = []

test.beforeAll(async ({ browser }) => {
  context = await browser.newContext({ baseURL: harnessEnv().baseUrl })
  api = await new ApiClient(context.request).signIn('Admin', harnessEnv().adminPassword)
  page = await context.newPage()
  server = http.createServer((req, res) => {
    let body = ''
    req.on('data', (c) => (body += c))
    req.on('end', () => {
      received.push({ headers: req.headers, body })
      res.writeHead(204).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook/${uniqueName('w')}`
})

test.afterAll(async () => {
  // Other screens' tests expect our additions off.
  await api.put('/api/ext/features', { webhooks: false })
  await context.close()
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
})

const signed = (secret: string, r: Received) =>
  r.headers['x-pennant-signature'] ===
  `sha256=${createHmac('sha256', secret).update(`${r.headers['x-pennant-timestamp']}.${r.body}`).digest('hex')}`

test('an admin turns webhooks on, adds an endpoint, tests it and reads its delivery log', async () => {
  await page.goto('/admin/webhooks')
  await expect(page.getByRole('heading', { level: 1, name: 'Webhooks' })).toBeVisible()
  const toggle = page.getByRole('switch', { name: 'Send webhooks' })
  await expect(toggle).not.toBeChecked()
  await expect(page.getByText('Webhooks are switched off.')).toBeVisible()
  await toggle.click({ force: true })
  await expect(toggle).toBeChecked()

  await page.getByRole('button', { name: 'Add endpoint' }).first().click()
  const form = page.getByRole('dialog', { name: 'Add an endpoint' })
  // An address that is not http(s) is refused before anything is sent.
  await form.getByRole('textbox', { name: 'Address' }).fill('ftp://example.org/x')
  await form.getByRole('button', { name: 'Add endpoint' }).click()
  await expect(form.getByText('Use an address starting with http:// or https://')).toBeVisible()
  await form.getByRole('textbox', { name: 'Address' }).fill(url)
  await form.getByRole('radio', { name: 'Slack' }).check()
  await form.getByRole('checkbox', { name: 'New notice' }).check()
  await form.getByRole('button', { name: 'Add endpoint' }).click()

  const shown = page.getByRole('dialog', { name: "The endpoint's secret" })
  const secretField = shown.getByRole('textbox', { name: 'Signing secret' })
  await expect(secretField).toHaveValue(/^whsec_/)
  const secret = await secretField.inputValue()
  await shown.getByRole('button', { name: 'I have copied it' }).click()
  await expect(shown).toBeHidden()
  await expect(page.getByText(secret)).toHaveCount(0)

  const item = page.getByRole('list', { name: 'Endpoints' }).getByRole('listitem').filter({ hasText: url })
  await expect(item.getByText('Slack', { exact: true })).toBeVisible()
  await expect(item.getByText('New notice')).toBeVisible()
  await item.getByRole('button', { name: `Send test: ${url}` }).click()
  await expect(page.getByText('The test was delivered (HTTP 204)')).toBeVisible()
  expect(received).toHaveLength(1)
  expect(received[0]!.headers['x-pennant-event']).toBe('Test')
  expect(JSON.parse(received[0]!.body)).toMatchObject({ text: expect.stringContaining('test delivery') })
  expect(signed(secret, received[0]!)).toBe(true)

  // An organiser's notice arrives too, and the log (refreshing while open) shows it delivered.
  const hour = 3_600_000
  const game = await api.post<{ id: number; title: string }>('/api/edit/games', {
    title: `Hooked ${uniqueName('g')}`,
    start: Date.now() - hour,
    end: Date.now() + hour,
  })
  await api.post(`/api/edit/games/${game.id}/notices`, { content: 'Servers restart at <14:00> & later' })
  await expect.poll(() => received.length).toBe(2)
  const notice = received[1]!
  expect(signed(secret, notice)).toBe(true)
  expect(JSON.parse(notice.body).text).toBe(
    `New notice in *${game.title}*: Servers restart at &lt;14:00&gt; &amp; later`,
  )

  await item.getByRole('button', { name: `Deliveries: ${url}` }).click()
  const log = page.getByRole('dialog', { name: 'Deliveries' })
  const entries = log.getByRole('list', { name: 'Deliveries, newest first' }).getByRole('listitem')
  await expect(entries).toHaveCount(2)
  await expect(entries.nth(0).getByRole('heading', { name: 'New notice' })).toBeVisible()
  await expect(entries.nth(0).getByText('Delivered', { exact: true })).toBeVisible()
  await expect(entries.nth(1).getByRole('heading', { name: 'Test' })).toBeVisible()
  await expect(entries.nth(1).getByText('204')).toBeVisible()
  await screenshot(page, 'admin-webhooks-log')
})
