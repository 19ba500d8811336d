import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { Browser, BrowserContext, Page } from '@playwright/test'
import type * as Axe from 'axe-core'
import {
  type AdminApi,
  ApiClient,
  expect,
  harnessEnv,
  screenshot,
  setColorScheme,
  test,
} from '../harness/fixtures.ts'

// Our additions: scheduled release (a challenge that opens by itself) and the big screen.

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

/** axe-core's critical and serious findings on the page as it is (as tests/a11y.spec.ts counts them). */
async function seriousFindings(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const { axe } = window as unknown as { axe: typeof Axe }
    const { violations } = await axe.run(document, { resultTypes: ['violations'] })
    return violations
      .filter((v) => v.impact === 'critical' || v.impact === 'serious')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
  })
}

interface Player {
  context: BrowserContext
  api: ApiClient
  team: string
  page: Page
}

/** A running game that accepts teams without review. */
async function runningGame(admin: AdminApi, title: string) {
  const now = Date.now()
  const game = await admin.post<Record<string, unknown> & { id: number }>('/api/edit/games', {
    title,
    start: now - 30 * 60_000,
    end: now + 90 * 60_000,
  })
  await admin.put(`/api/edit/games/${game.id}`, { ...game, acceptWithoutReview: true })
  return game.id
}

/** An enabled static challenge (with `extra` fields, such as a schedule). */
async function challenge(admin: AdminApi, gameId: number, title: string, flag: string, extra = {}) {
  const c = await admin.post<{ id: number }>(`/api/edit/games/${gameId}/challenges`, {
    title,
    category: 'Web',
    type: 'StaticAttachment',
  })
  await admin.post(`/api/edit/games/${gameId}/challenges/${c.id}/flags`, [{ flag }])
  await admin.put(`/api/edit/games/${gameId}/challenges/${c.id}`, { isEnabled: true, ...extra })
  return c.id
}

async function player(browser: Browser, gameId: number, name: (prefix?: string) => string): Promise<Player> {
  const context = await browser.newContext({ baseURL: harnessEnv().baseUrl })
  const api = new ApiClient(context.request)
  const user = name('sp')
  await api.post('/api/account/register', {
    userName: user,
    password: 'Passw0rd!',
    email: `${user}@e2e.test`,
  })
  const team = `Team ${name('st')}`
  const created = await api.post<{ id: number }>('/api/team', { name: team, bio: 'e2e' })
  await api.post(`/api/game/${gameId}`, { teamId: created.id })
  return { context, api, team, page: await context.newPage() }
}

test('a scheduled challenge appears on an open challenges screen at its time, without a reload', async ({
  browser,
  adminApi,
  uniqueName,
}) => {
  await adminApi.put('/api/ext/features', { scheduledRelease: true })
  try {
    const gameId = await runningGame(adminApi, `Sched ${uniqueName('g')}`)
    const first = `Warmup ${uniqueName('c')}`
    await challenge(adminApi, gameId, first, 'flag{warm}')
    const watcher = await player(browser, gameId, uniqueName)
    const later = `Midnight ${uniqueName('c')}`
    // A minute ahead on the server's clock, which the test then moves there instead of waiting
    // (a minute: the specs after this one share the server and its clock).
    const { now } = await adminApi.advanceClock(0)
    const openAt = now + 60_000
    const laterId = await challenge(adminApi, gameId, later, 'flag{late}', { openAt })

    await watcher.page.goto(`/games/${gameId}/challenges`)
    await expect(watcher.page.getByText(first, { exact: true })).toBeVisible()
    await expect(watcher.page.getByRole('status').filter({ hasText: 'Live' }).first()).toBeVisible()
    // Before its time: neither in the list nor reachable.
    await expect(watcher.page.getByText(later, { exact: true })).toHaveCount(0)
    expect((await watcher.api.raw('GET', `/api/game/${gameId}/challenges/${laterId}`)).status()).toBe(404)

    // At its time (the release job runs as the clock passes it): the notice comes through the
    // hub and the card shows, with no reload.
    expect((await adminApi.advanceClock(60_000)).now).toBeGreaterThanOrEqual(openAt)
    const panel = watcher.page.getByRole('region', { name: 'Notices' })
    await expect(panel.getByText(later)).toBeVisible({ timeout: 20_000 })
    await expect(watcher.page.getByRole('button', { name: new RegExp(later) }).first()).toBeVisible({
      timeout: 5_000,
    })
    await screenshot(watcher.page, 'schedule-opened')
    await watcher.context.close()
  } finally {
    await adminApi.put('/api/ext/features', { scheduledRelease: false })
  }
})

test('the big screen shows the ranking, the chart and the bloods at projector sizes', async ({
  browser,
  adminApi,
  uniqueName,
}) => {
  // Fifteen teams and screenshots up to 4K: longer than the default minute.
  test.setTimeout(180_000)
  const title = `Finals ${uniqueName('g')}`
  const gameId = await runningGame(adminApi, title)
  const flags = ['flag{a}', 'flag{b}', 'flag{c}']
  const ids: number[] = []
  for (const [i, flag] of flags.entries()) ids.push(await challenge(adminApi, gameId, `Task ${i + 1}`, flag))
  const players: Player[] = []
  for (let i = 0; i < 14; i++) players.push(await player(browser, gameId, uniqueName))
  // Some solves, so there are lines, ranks and bloods.
  for (const [i, p] of players.entries())
    for (let c = 0; c < flags.length; c++)
      if ((i + c) % 3 !== 0) await p.api.post(`/api/game/${gameId}/challenges/${ids[c]}`, { flag: flags[c] })

  const viewer = await browser.newContext({
    baseURL: harnessEnv().baseUrl,
    viewport: { width: 1920, height: 1080 },
  })
  await viewer.addInitScript({ content: AXE_SOURCE })
  const page = await viewer.newPage()
  try {
    // Switched off: not available.
    await adminApi.put('/api/ext/features', { bigScreen: false })
    await page.goto(`/games/${gameId}/bigscreen`)
    await expect(page.getByRole('heading', { name: 'The big screen is not available' })).toBeVisible()

    await adminApi.put('/api/ext/features', { bigScreen: true })
    await page.reload()
    await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible()
    const top = page.getByRole('list', { name: 'Top 10 teams' })
    await expect(top.getByRole('listitem')).toHaveCount(10)
    await expect(page.getByRole('list', { name: 'The other teams' }).getByRole('listitem')).toHaveCount(4)
    // Nine bloods so far (three per task); the six newest are listed.
    const bloods = page.getByRole('region', { name: 'Latest bloods' }).getByRole('listitem')
    await expect(bloods).toHaveCount(6)
    await expect(bloods.first()).toContainText(/(First|Second|Third) blood/)
    await expect(page.locator('figure svg path').first()).toBeVisible()
    // No controls on a projector.
    await expect(page.getByRole('button')).toHaveCount(0)
    // Everything fits on the screen: nothing to scroll.
    const overflow = await page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight)
    expect(overflow).toBeLessThanOrEqual(0)

    // A blood landing while it is up shows without a reload.
    const late = await player(browser, gameId, uniqueName)
    const fresh = await challenge(adminApi, gameId, 'Task 4', 'flag{d}')
    await late.api.post(`/api/game/${gameId}/challenges/${fresh}`, { flag: 'flag{d}' })
    const arrived = page.locator('li[data-fresh]')
    await expect(arrived).toContainText(late.team, { timeout: 15_000 })
    await expect(arrived).toContainText('Task 4')
    await late.context.close()

    for (const scheme of ['dark', 'light'] as const) {
      await setColorScheme(page, scheme)
      for (const size of [
        { width: 1920, height: 1080 },
        { width: 3840, height: 2160 },
        { width: 390, height: 844 },
      ]) {
        await page.setViewportSize(size)
        await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible()
        // real wait: the browser lays out the new viewport before the screenshot
        await page.waitForTimeout(300)
        await screenshot(page, 'bigscreen')
        expect(await seriousFindings(page), `${scheme} ${size.width}`).toEqual([])
      }
      await page.setViewportSize({ width: 1920, height: 1080 })
    }

    // Organisers find it from the scoreboard.
    const admin = await browser.newContext({ baseURL: harnessEnv().baseUrl })
    await new ApiClient(admin.request).signIn('Admin', harnessEnv().adminPassword)
    const adminPage = await admin.newPage()
    await adminPage.goto(`/games/${gameId}/scoreboard`)
    const link = adminPage.getByRole('link', { name: 'Big screen' })
    await expect(link).toHaveAttribute('href', `/games/${gameId}/bigscreen`)
    await admin.close()
    // …and players do not.
    await players[0]!.page.goto(`/games/${gameId}/scoreboard`)
    await expect(players[0]!.page.getByRole('heading', { name: 'Ranking' })).toBeVisible()
    await expect(players[0]!.page.getByRole('link', { name: 'Big screen' })).toHaveCount(0)
  } finally {
    await adminApi.put('/api/ext/features', { bigScreen: false })
    await viewer.close()
    for (const p of players) await p.context.close()
  }
})

test('organisers set a schedule in the challenge editor and see it in the list', async ({
  browser,
  adminApi,
  uniqueName,
}) => {
  await adminApi.put('/api/ext/features', { scheduledRelease: true })
  const context = await browser.newContext({ baseURL: harnessEnv().baseUrl })
  try {
    const api = await new ApiClient(context.request).signIn('Admin', harnessEnv().adminPassword)
    const gameId = await runningGame(adminApi, `Plan ${uniqueName('g')}`)
    const title = `Night ${uniqueName('c')}`
    const id = await challenge(adminApi, gameId, title, 'flag{night}')
    const page = await context.newPage()
    await page.goto(`/admin/games/${gameId}/challenges/${id}`)
    const opens = page.getByLabel('Opens at')
    const closes = page.getByLabel('Closes at')
    // The browsers run in UTC (playwright.config.ts): the typed times are UTC.
    await opens.fill('2031-05-04T20:00')
    await closes.fill('2031-05-04T19:00')
    await page.getByRole('button', { name: 'Save', exact: true }).click()
    await expect(page.getByText('The closing time must come after the opening time')).toBeVisible()
    await closes.fill('2031-05-05T02:30')
    // Keyboard only: Enter in a field submits the form.
    await closes.press('Enter')
    await expect(page.getByText('Challenge saved')).toBeVisible()
    const stored = await api.get<{ openAt: number; closeAt: number }>(
      `/api/edit/games/${gameId}/challenges/${id}`,
    )
    expect(stored).toMatchObject({
      openAt: Date.UTC(2031, 4, 4, 20, 0),
      closeAt: Date.UTC(2031, 4, 5, 2, 30),
    })
    for (const scheme of ['dark', 'light'] as const) {
      await setColorScheme(page, scheme)
      await expect(opens).toHaveValue('2031-05-04T20:00')
      await opens.scrollIntoViewIfNeeded()
      await screenshot(page, 'schedule-editor')
    }

    await page.goto(`/admin/games/${gameId}/challenges`)
    const row = page.getByRole('listitem').filter({ hasText: title })
    await expect(row).toContainText('Opens May 4, 2031')
    await expect(row).toContainText('Closes May 5, 2031')
    for (const size of [
      { width: 1440, height: 900 },
      { width: 390, height: 844 },
    ]) {
      await page.setViewportSize(size)
      await screenshot(page, 'schedule-list')
    }
  } finally {
    await adminApi.put('/api/ext/features', { scheduledRelease: false })
    await context.close()
  }
})
