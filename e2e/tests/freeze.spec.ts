import type { Browser, Page } from '@playwright/test'
import { type AdminApi, ApiClient, expect, harnessEnv, test } from '../harness/fixtures.ts'

// The scoreboard freeze (Pennant addition, `freeze` switch): an admin freezes a running game in
// the game editor; a player's solve after the freeze does not move the public board, but shows
// as solved to that player's team; the admin's reveal publishes it.

interface Setup {
  id: number
  title: string
  challenge: { id: number; title: string; flag: string }
}

async function createGame(admin: AdminApi, name: (prefix?: string) => string): Promise<Setup> {
  const now = Date.now()
  const title = `Freeze ${name('g')}`
  const game = await admin.post<Record<string, unknown> & { id: number }>('/api/edit/games', {
    title,
    start: now - 10 * 60_000,
    end: now + 60 * 60_000,
  })
  await admin.put(`/api/edit/games/${game.id}`, { ...game, acceptWithoutReview: true })
  const challengeTitle = `Ice ${name('c')}`
  const flag = `flag{ice-${name()}}`
  const c = await admin.post<{ id: number }>(`/api/edit/games/${game.id}/challenges`, {
    title: challengeTitle,
    category: 'Web',
    type: 'StaticAttachment',
  })
  await admin.post(`/api/edit/games/${game.id}/challenges/${c.id}/flags`, [{ flag }])
  await admin.put(`/api/edit/games/${game.id}/challenges/${c.id}`, {
    isEnabled: true,
    content: `Find the flag of **${challengeTitle}**.`,
  })
  return { id: game.id, title, challenge: { id: c.id, title: challengeTitle, flag } }
}

/** A signed-in player whose new team joined the game (accepted without review). */
async function player(browser: Browser, name: (prefix?: string) => string, gameId: number) {
  const context = await browser.newContext({ baseURL: harnessEnv().baseUrl })
  const api = new ApiClient(context.request)
  const user = name('fz')
  await api.post('/api/account/register', {
    userName: user,
    password: 'Passw0rd!',
    email: `${user}@e2e.test`,
  })
  const team = await api.post<{ id: number; name: string }>('/api/team', { name: `Team ${name('fz')}` })
  await api.post(`/api/game/${gameId}`, { teamId: team.id })
  return { context, page: await context.newPage(), team: team.name }
}

const teamRow = (page: Page, team: string) =>
  page
    .getByRole('region', { name: 'Ranking table' })
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name: team }) })

test('an admin freezes a running game; a later solve stays off the public board until the reveal', async ({
  browser,
  adminApi,
  uniqueName,
  shootAll,
}) => {
  test.setTimeout(180_000)
  await adminApi.put('/api/ext/features', { freeze: true })
  try {
    const game = await createGame(adminApi, uniqueName)
    const a = await player(browser, uniqueName, game.id)
    const b = await player(browser, uniqueName, game.id)

    // The admin sets the freeze to this minute in the game editor and saves.
    const adminContext = await browser.newContext({ baseURL: harnessEnv().baseUrl })
    await new ApiClient(adminContext.request).signIn('Admin', harnessEnv().adminPassword)
    const admin = await adminContext.newPage()
    await admin.goto(`/admin/games/${game.id}/info`)
    const section = admin.getByRole('region', { name: 'Scoreboard freeze' })
    await expect(section.getByRole('button', { name: 'Reveal the scoreboard' })).toBeDisabled()
    const thisMinute = await admin.evaluate(() => {
      const d = new Date()
      const pad = (n: number) => String(n).padStart(2, '0')
      return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`
    })
    await section.getByLabel('Freeze the scoreboard at').fill(thisMinute)
    await admin.getByRole('button', { name: 'Save', exact: true }).click()
    await expect(section.getByText(/The public scoreboard is frozen at/)).toBeVisible()
    await expect(section.getByRole('button', { name: 'Reveal the scoreboard' })).toBeEnabled()
    await shootAll(admin, 'freeze-editor')

    // Player A solves after the freeze: the board says it is frozen; the card shows "Solved".
    await a.page.goto(`/games/${game.id}/challenges`)
    await expect(a.page.getByTestId('frozen-banner')).toContainText('Scoreboard frozen since')
    const card = a.page.getByRole('button', { name: new RegExp(game.challenge.title) })
    await card.click()
    const dialog = a.page.getByRole('dialog', { name: game.challenge.title })
    await dialog.getByRole('textbox', { name: 'Flag' }).fill(game.challenge.flag)
    await dialog.getByRole('textbox', { name: 'Flag' }).press('Enter')
    await expect(dialog).toBeHidden()
    await a.page.reload()
    await expect(card).toContainText('Solved')
    await shootAll(a.page, 'freeze-challenges')

    // The public board did not move: no blood, no points for A, for B, for A, and anonymously.
    const visitor = await browser.newContext({ baseURL: harnessEnv().baseUrl })
    const anonymous = await visitor.newPage()
    for (const page of [b.page, a.page, anonymous]) {
      await page.goto(`/games/${game.id}/scoreboard`)
      await expect(page.getByTestId('frozen-banner')).toBeVisible()
      const row = teamRow(page, a.team)
      await expect(row).toBeVisible()
      await expect(row).not.toContainText('First blood')
    }
    await shootAll(b.page, 'freeze-scoreboard')
    // The game's home says so too.
    await b.page.goto(`/games/${game.id}`)
    await expect(b.page.getByTestId('frozen-banner')).toContainText('Scoreboard frozen since')
    await shootAll(b.page, 'freeze-game')
    // The admin's view of the board is the true one.
    await admin.goto(`/games/${game.id}/scoreboard`)
    await expect(teamRow(admin, a.team)).toContainText(`First blood: ${game.challenge.title}`)
    await expect(admin.getByTestId('frozen-banner')).toContainText(
      'As an organiser you see the live standings',
    )

    // The reveal, from the editor: every player's board shows the solve.
    await admin.goto(`/admin/games/${game.id}/info`)
    await section.getByRole('button', { name: 'Reveal the scoreboard' }).click()
    await admin.getByRole('dialog').getByRole('button', { name: 'Reveal the scoreboard' }).click()
    await expect(section.getByText('The public scoreboard is live.')).toBeVisible()
    for (const page of [b.page, anonymous]) {
      await page.goto(`/games/${game.id}/scoreboard`)
      await expect(teamRow(page, a.team)).toContainText(`First blood: ${game.challenge.title}`)
      await expect(page.getByTestId('frozen-banner')).toHaveCount(0)
    }
    await visitor.close()
    await a.context.close()
    await b.context.close()
    await adminContext.close()
  } finally {
    await adminApi.put('/api/ext/features', { freeze: false })
  }
})

test('with the freeze switch off, the editor says the freeze times are ignored', async ({
  browser,
  adminApi,
  uniqueName,
}) => {
  await adminApi.put('/api/ext/features', { freeze: false })
  const game = await createGame(adminApi, uniqueName)
  const context = await browser.newContext({ baseURL: harnessEnv().baseUrl })
  await new ApiClient(context.request).signIn('Admin', harnessEnv().adminPassword)
  const page = await context.newPage()
  await page.goto(`/admin/games/${game.id}/info`)
  const section = page.getByRole('region', { name: 'Scoreboard freeze' })
  await expect(section.getByRole('note')).toContainText('these times are ignored')
  await expect(section.getByRole('button', { name: 'Reveal the scoreboard' })).toBeDisabled()
  await context.close()
})
