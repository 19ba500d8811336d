import type { Browser, Page } from '@playwright/test'
import { type AdminApi, ApiClient, expect, harnessEnv, test } from '../harness/fixtures.ts'

// Live updates: screens that change without a reload, through the hubs.

interface LiveGame {
  id: number
  challenge: { id: number; title: string; flag: string }
}

/** A running game that accepts teams without review, with one challenge. */
async function liveGame(admin: AdminApi, name: (prefix?: string) => string): Promise<LiveGame> {
  const now = Date.now()
  const game = await admin.post<Record<string, unknown> & { id: number }>('/api/edit/games', {
    title: `Live ${name('g')}`,
    start: now - 10 * 60_000,
    end: now + 60 * 60_000,
  })
  await admin.put(`/api/edit/games/${game.id}`, { ...game, acceptWithoutReview: true })
  const title = `Echo ${name('c')}`
  const flag = `flag{live-${name()}}`
  const created = await admin.post<{ id: number }>(`/api/edit/games/${game.id}/challenges`, {
    title,
    category: 'Web',
    type: 'StaticAttachment',
  })
  await admin.post(`/api/edit/games/${game.id}/challenges/${created.id}/flags`, [{ flag }])
  await admin.put(`/api/edit/games/${game.id}/challenges/${created.id}`, { isEnabled: true })
  return { id: game.id, challenge: { id: created.id, title, flag } }
}

/** A signed-in player whose new team joined the game; `api` speaks for them. */
async function player(browser: Browser, game: LiveGame, name: (prefix?: string) => string) {
  const context = await browser.newContext({ baseURL: harnessEnv().baseUrl })
  const api = new ApiClient(context.request)
  const user = name('lp')
  await api.post('/api/account/register', {
    userName: user,
    password: 'Passw0rd!',
    email: `${user}@e2e.test`,
  })
  const team = `Team ${name('lt')}`
  const created = await api.post<{ id: number }>('/api/team', { name: team, bio: 'e2e' })
  await api.post(`/api/game/${game.id}`, { teamId: created.id })
  return { context, api, team, page: await context.newPage() }
}

const live = (page: Page) =>
  expect(page.getByRole('status').filter({ hasText: 'Live' }).first()).toBeVisible()

test('a notice and a blood reach an open challenges screen without a reload', async ({
  browser,
  adminApi,
  uniqueName,
}) => {
  const game = await liveGame(adminApi, uniqueName)
  const watcher = await player(browser, game, uniqueName)
  const solver = await player(browser, game, uniqueName)
  await watcher.page.goto(`/games/${game.id}/challenges`)
  const panel = watcher.page.getByRole('region', { name: 'Notices' })
  await live(watcher.page)

  await adminApi.post(`/api/edit/games/${game.id}/notices`, { content: 'Hint drop at **noon**' })
  await expect(panel.getByText('Hint drop at noon')).toBeVisible()
  await expect(
    watcher.page.locator('.mantine-Notification-root').filter({ hasText: 'Hint drop at noon' }),
  ).toBeVisible()

  // Another team's first solve: a blood notice, highlighted in the panel.
  await solver.api.post(`/api/game/${game.id}/challenges/${game.challenge.id}`, { flag: game.challenge.flag })
  const blood = panel.locator('li[data-blood]')
  await expect(blood).toContainText(solver.team)
  await expect(blood).toContainText(game.challenge.title)
  await watcher.context.close()
  await solver.context.close()
})

test('a solve moves the scoreboard another team has open, and the monitor sees it judged', async ({
  browser,
  adminApi,
  uniqueName,
}) => {
  const game = await liveGame(adminApi, uniqueName)
  const watcher = await player(browser, game, uniqueName)
  const solver = await player(browser, game, uniqueName)
  await watcher.page.goto(`/games/${game.id}/scoreboard`)
  await live(watcher.page)
  const ranking = watcher.page.getByRole('region', { name: 'Ranking table' })
  const solverRow = ranking
    .getByRole('row')
    .filter({ has: watcher.page.getByRole('rowheader', { name: solver.team }) })
  await expect(solverRow).toBeVisible()

  const monitorContext = await browser.newContext({ baseURL: harnessEnv().baseUrl })
  await new ApiClient(monitorContext.request).signIn('Admin', harnessEnv().adminPassword)
  const monitor = await monitorContext.newPage()
  await monitor.goto(`/games/${game.id}/monitor/submissions`)
  await live(monitor)

  await solver.api.post(`/api/game/${game.id}/challenges/${game.challenge.id}`, { flag: 'flag{nope}' })
  await solver.api.post(`/api/game/${game.id}/challenges/${game.challenge.id}`, { flag: game.challenge.flag })
  // The monitor's table gains both rows as they are judged, newest first.
  const rows = monitor.getByRole('row')
  await expect(rows.filter({ hasText: game.challenge.flag })).toContainText('Accepted')
  await expect(rows.filter({ hasText: 'flag{nope}' })).toBeVisible()
  // The other team's open scoreboard ranks the solver first, with the challenge solved.
  await expect(solverRow.locator('td').first()).toHaveText('1')
  await expect(solverRow).toContainText(`First blood: ${game.challenge.title}`)

  await monitorContext.close()
  await watcher.context.close()
  await solver.context.close()
})
