import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { Page } from '@playwright/test'
import type * as Axe from 'axe-core'
import {
  type AdminApi,
  ApiClient,
  expect,
  harnessEnv,
  screenshot,
  setColorScheme,
  test,
  VIEWPORTS,
} from '../harness/fixtures.ts'

// Issue 27, item 7: what players and organisers trip over on these screens. An anonymous page
// logs no error in the console; the games list marks the games a player joined; the admin
// game's Info page has no tap target under 24 px on a phone (WCAG 2.2, 2.5.8).

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

/** Collects what the browser's console shows as errors (a failed request is one), and failed requests. */
function consoleErrors(page: Page): string[] {
  const errors: string[] = []
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(`${msg.text()} (${msg.location().url})`)
  })
  page.on('pageerror', (err) => errors.push(String(err)))
  page.on('response', (res) => {
    if (res.status() >= 400) errors.push(`${res.status()} ${res.url()}`)
  })
  return errors
}

/** A started game that takes teams without review. */
async function createGame(admin: AdminApi, title: string) {
  const now = Date.now()
  const game = await admin.post<Record<string, unknown> & { id: number }>('/api/edit/games', {
    title,
    start: now - 10 * 60_000,
    end: now + 60 * 60_000,
  })
  await admin.put(`/api/edit/games/${game.id}`, {
    ...game,
    acceptWithoutReview: true,
    summary: 'A game of the screens spec.',
  })
  return game.id
}

for (const [path, heading] of [
  ['/', /.+/],
  ['/games', 'Games'],
  ['/account/login', /.+/],
] as const) {
  test(`the anonymous ${path} logs no error in the console`, async ({ page }) => {
    const errors = consoleErrors(page)
    await page.goto(path)
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible()
    await page.waitForLoadState('networkidle')
    expect(errors).toEqual([])
  })
}

test('the games list marks the games the player joined', async ({ browser, adminApi, uniqueName }) => {
  const joined = `Joined ${uniqueName('g')}`
  const other = `Other ${uniqueName('g')}`
  const joinedId = await createGame(adminApi, joined)
  await createGame(adminApi, other)

  const context = await browser.newContext({ baseURL: harnessEnv().baseUrl })
  const api = new ApiClient(context.request)
  const user = uniqueName('gl')
  await api.post('/api/account/register', {
    userName: user,
    password: 'Passw0rd!',
    email: `${user}@e2e.test`,
  })
  await api.post('/api/team', { name: `Team ${user}`, bio: 'e2e' })
  const page = await context.newPage()
  const errors = consoleErrors(page)

  // Joined through the game's page, as a player does; then back to the list.
  await page.goto(`/games/${joinedId}`)
  await page.getByRole('button', { name: 'Join this game' }).click()
  await page.getByRole('dialog', { name: 'Before you join' }).getByRole('button', { name: 'I agree' }).click()
  const form = page.getByRole('dialog', { name: `Join ${joined}` })
  await expect(form.getByRole('combobox', { name: 'Team' })).toBeVisible()
  await form.getByRole('button', { name: 'Join', exact: true }).click()
  await expect(page.getByRole('button', { name: 'Joined' })).toBeDisabled()
  await page.getByRole('link', { name: 'Games', exact: true }).first().click()

  const card = (title: string) =>
    page.getByRole('article').filter({ has: page.getByRole('link', { name: title }) })
  await expect(card(other)).toBeVisible()
  await expect(card(joined).getByText('Joined', { exact: true })).toBeVisible()
  // The badge names the team (its title), read by a pointer or a screen reader.
  await expect(card(joined).getByTitle(`Team ${user}`)).toHaveText('Joined')
  await expect(card(other).getByText('Joined', { exact: true })).toHaveCount(0)
  await screenshot(page, 'games-joined')
  expect(errors).toEqual([])
  await context.close()
})

test('the admin game Info page has no tap target under 24 px on a phone', async ({
  browser,
  adminApi,
  uniqueName,
}) => {
  const id = await createGame(adminApi, `Targets ${uniqueName('g')}`)
  const context = await browser.newContext({ baseURL: harnessEnv().baseUrl, viewport: VIEWPORTS.phone })
  await context.addInitScript({ content: AXE_SOURCE })
  await new ApiClient(context.request).signIn('Admin', harnessEnv().adminPassword)
  const page = await context.newPage()
  await page.goto(`/admin/games/${id}/info`)
  await expect(page.getByRole('textbox', { name: 'Title' })).toBeVisible()

  // axe's target-size rule is WCAG 2.5.8: at least 24 × 24 px, or spaced so a 24 px circle on
  // each small target touches no other target.
  const small = await page.evaluate(async () => {
    const { axe } = window as unknown as { axe: typeof Axe }
    const { violations } = await axe.run(document, { runOnly: { type: 'rule', values: ['target-size'] } })
    return violations.flatMap((v) => v.nodes.map((n) => `${n.target.join(' ')}: ${n.failureSummary}`))
  })
  expect(small).toEqual([])
  for (const scheme of ['light', 'dark'] as const) {
    await setColorScheme(page, scheme)
    await expect(page.getByRole('textbox', { name: 'Title' })).toBeVisible()
    await screenshot(page, 'admin-game-info-targets')
  }
  await context.close()
})
