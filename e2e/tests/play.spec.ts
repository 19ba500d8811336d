import { readFileSync } from 'node:fs'
import type { BrowserContext, Page } from '@playwright/test'
import { awardedScore } from '../../server/src/engine/blood-bonus.ts'
import { dynamicScore } from '../../server/src/engine/scoring.ts'
import { type AdminApi, ApiClient, expect, harnessEnv, test } from '../harness/fixtures.ts'

// Playing a game end to end: two players join through the game's home, solve challenges on the
// board (wrong flag, right flag), and the scoreboard shows the ranks, scores and bloods the
// engine's rules give. Then a phone-width solve, and screenshots of every playing screen.

/** What a wrong flag may answer: the English quips the web client picks from. */
const WRONG_FLAG_QUIPS: string[] = JSON.parse(
  readFileSync(new URL('../../web/src/i18n/locales/en-US/game.json', import.meta.url), 'utf8'),
).quips

interface Challenge {
  id: number
  title: string
  flag: string
}

interface GameSetup {
  id: number
  title: string
  challenges: [Challenge, Challenge, Challenge]
  bloodBonus: number
}

/** A started game (ends in an hour) that accepts teams without review, with three challenges. */
async function createGame(admin: AdminApi, name: (prefix?: string) => string): Promise<GameSetup> {
  const now = Date.now()
  const title = `Play ${name('g')}`
  const game = await admin.post<Record<string, unknown> & { id: number; bloodBonus: number }>(
    '/api/edit/games',
    {
      title,
      start: now - 10 * 60_000,
      end: now + 60 * 60_000,
    },
  )
  await admin.put(`/api/edit/games/${game.id}`, {
    ...game,
    acceptWithoutReview: true,
    summary: 'An end-to-end test game.',
    content: '## Rules\n\nFlags look like `flag{...}`.',
    writeupRequired: true,
    writeupDeadline: now + 2 * 60 * 60_000,
    writeupNote: 'One **PDF** per team.',
  })
  const specs = [
    { title: `Alpha ${name('c')}`, category: 'Web', flag: `flag{alpha-${name()}}` },
    { title: `Bravo ${name('c')}`, category: 'Crypto', flag: `flag{bravo-${name()}}` },
    { title: `Charlie ${name('c')}`, category: 'Misc', flag: `flag{charlie-${name()}}` },
  ]
  const challenges: Challenge[] = []
  for (const spec of specs) {
    const created = await admin.post<{ id: number }>(`/api/edit/games/${game.id}/challenges`, {
      title: spec.title,
      category: spec.category,
      type: 'StaticAttachment',
    })
    await admin.post(`/api/edit/games/${game.id}/challenges/${created.id}/flags`, [{ flag: spec.flag }])
    await admin.put(`/api/edit/games/${game.id}/challenges/${created.id}`, {
      isEnabled: true,
      content: `Find the flag of **${spec.title}**.`,
      hints: ['Read the `source`.'],
      submissionLimit: spec.category === 'Misc' ? 10 : 0,
    })
    challenges.push({ id: created.id, title: spec.title, flag: spec.flag })
  }
  return {
    id: game.id,
    title,
    challenges: challenges as GameSetup['challenges'],
    bloodBonus: game.bloodBonus,
  }
}

interface Player {
  context: BrowserContext
  page: Page
  user: string
  team: string
}

/** A browser with a freshly registered (and thereby signed-in) user who captains a new team. */
async function newPlayer(
  browser: import('@playwright/test').Browser,
  name: (prefix?: string) => string,
  label: string,
): Promise<Player> {
  const context = await browser.newContext({ baseURL: harnessEnv().baseUrl })
  const api = new ApiClient(context.request)
  const user = name(label)
  await api.post('/api/account/register', {
    userName: user,
    password: 'Passw0rd!',
    email: `${user}@e2e.test`,
  })
  const team = `Team ${name(label)}`
  await api.post('/api/team', { name: team, bio: 'e2e' })
  return { context, page: await context.newPage(), user, team }
}

/** Joins the game through its home page: rules, then the join form with the only team picked. */
async function joinThroughUi({ page }: Player, game: GameSetup) {
  await page.goto(`/games/${game.id}`)
  await expect(page.getByRole('heading', { level: 1, name: game.title })).toBeVisible()
  await page.getByRole('button', { name: 'Join this game' }).click()
  await page.getByRole('dialog', { name: 'Before you join' }).getByRole('button', { name: 'I agree' }).click()
  const form = page.getByRole('dialog', { name: `Join ${game.title}` })
  await expect(form.getByRole('combobox', { name: 'Team' })).toBeVisible()
  await form.getByRole('button', { name: 'Join', exact: true }).click()
  await expect(form).toBeHidden()
  await expect(page.getByRole('button', { name: 'Joined' })).toBeDisabled()
  await expect(page.getByRole('link', { name: 'Challenges' }).first()).toBeVisible()
}

const card = (page: Page, challenge: Challenge) =>
  page.getByRole('button', { name: new RegExp(challenge.title) })
const toast = (page: Page, title: string) =>
  page.locator('.mantine-Notification-root').filter({ hasText: title })

/** Opens a challenge on the board and submits a flag; waits for the judge's toast. */
async function submitFlag(
  page: Page,
  challenge: Challenge,
  flag: string,
  expected: 'Correct!' | 'Wrong flag',
) {
  await card(page, challenge).click()
  const dialog = page.getByRole('dialog', { name: challenge.title })
  await expect(dialog.getByText(`Find the flag of ${challenge.title}.`)).toBeVisible()
  // The flag field has the keyboard as soon as the challenge is there: type at once.
  const field = dialog.getByRole('textbox', { name: 'Flag' })
  await expect(field).toBeFocused()
  await page.keyboard.type(flag)
  await field.press('Enter')
  await expect(toast(page, expected).first()).toBeVisible()
  if (expected === 'Correct!') {
    await expect(dialog).toBeHidden()
    await expect(card(page, challenge)).toContainText('Solved')
  } else {
    // The judge knows only "wrong": the message must not hint at closeness or another challenge.
    const message = await toast(page, expected)
      .first()
      .locator('.mantine-Notification-description')
      .textContent()
    expect(WRONG_FLAG_QUIPS).toContain(message)
    expect(message).not.toMatch(/close|almost|narrow|challenge/i)
    await page.keyboard.press('Escape')
    await expect(dialog).toBeHidden()
  }
  // Closed, the keyboard is back on the challenge's card, not at the top of the page.
  await expect(card(page, challenge)).toBeFocused()
}

test('two teams join, solve, and the scoreboard ranks them by the engine’s rules', async ({
  browser,
  adminApi,
  uniqueName,
  shootAll,
}) => {
  test.setTimeout(240_000)
  const game = await createGame(adminApi, uniqueName)
  const [one, two, three] = game.challenges

  // The game home before joining, for an anonymous visitor.
  const visitor = await browser.newContext({ baseURL: harnessEnv().baseUrl })
  const anonymous = await visitor.newPage()
  await anonymous.goto(`/games/${game.id}`)
  await expect(anonymous.getByRole('button', { name: 'Join this game' })).toBeDisabled()
  await expect(anonymous.getByRole('link', { name: 'Log in to join this game.' })).toBeVisible()
  await shootAll(anonymous, 'play-game-not-joined')
  await anonymous.goto('/games')
  await expect(anonymous.getByRole('link', { name: game.title })).toBeVisible()
  await shootAll(anonymous, 'play-games')
  await visitor.close()

  const a = await newPlayer(browser, uniqueName, 'pa')
  const b = await newPlayer(browser, uniqueName, 'pb')
  await joinThroughUi(a, game)
  await joinThroughUi(b, game)
  await shootAll(a.page, 'play-game-joined')

  // Team A: a wrong flag, then the right one for challenge 1 (first blood).
  await a.page.getByRole('link', { name: 'Challenges' }).first().click()
  await expect(card(a.page, one)).toBeVisible()
  await submitFlag(a.page, one, 'flag{certainly-not}', 'Wrong flag')
  await submitFlag(a.page, one, one.flag, 'Correct!')

  // Team B: challenge 1 (second blood), then challenge 2 (first blood); then A solves challenge 2.
  await b.page.goto(`/games/${game.id}/challenges`)
  await submitFlag(b.page, one, one.flag, 'Correct!')
  await submitFlag(b.page, two, two.flag, 'Correct!')
  await submitFlag(a.page, two, two.flag, 'Correct!')

  // Expected points: every challenge ends with two solvers; blood bonuses on top.
  const base = dynamicScore(1000, 0.25, 5, 2)
  const firstBlood = awardedScore(base, game.bloodBonus, 1)
  const secondBlood = awardedScore(base, game.bloodBonus, 2)
  const total = firstBlood + secondBlood
  // Equal totals: the team whose last solve came first ranks higher (B solved challenge 2 first).
  const expected = [
    { player: b, rank: 1, bloodOn: two },
    { player: a, rank: 2, bloodOn: one },
  ]

  for (const viewer of [a, b]) {
    await viewer.page.goto(`/games/${game.id}/scoreboard`)
    await expect(viewer.page.getByRole('heading', { name: 'Ranking' })).toBeVisible()
    for (const { player, rank, bloodOn } of expected) {
      // (The chart's text alternative is a table too: look in the ranking only.)
      const row = viewer.page
        .getByRole('region', { name: 'Ranking table' })
        .getByRole('row')
        .filter({ has: viewer.page.getByRole('rowheader', { name: player.team }) })
      await expect(row.locator('td').first()).toHaveText(String(rank))
      await expect(row).toContainText(String(total))
      await expect(row).toContainText(`First blood: ${bloodOn.title}, ${firstBlood} points`)
      await expect(row).toContainText(
        `Second blood: ${(bloodOn === one ? two : one).title}, ${secondBlood} points`,
      )
      // Each team sees its own row marked, and only its own.
      if (player === viewer) await expect(row).toContainText('Your team')
      else await expect(row).not.toContainText('Your team')
    }
  }
  await shootAll(a.page, 'play-scoreboard')

  // The challenge board and an open challenge (the URL hash opens it again after each reload).
  await a.page.goto(`/games/${game.id}/challenges`)
  await expect(card(a.page, one)).toContainText('Solved')
  await shootAll(a.page, 'play-challenges')
  await card(a.page, three).click()
  await expect(a.page).toHaveURL(new RegExp(`#${three.id}-Charlie`))
  await expect(a.page.getByRole('dialog', { name: three.title })).toBeVisible()
  await shootAll(a.page, 'play-challenge-dialog')

  // On a phone: the board works and a flag goes in from the full-screen dialog.
  await a.page.setViewportSize({ width: 390, height: 844 })
  await a.page.goto(`/games/${game.id}/challenges`)
  await submitFlag(a.page, three, three.flag, 'Correct!')
  await a.page.setViewportSize({ width: 1440, height: 900 })

  await a.context.close()
  await b.context.close()

  // The monitor pages, as the admin.
  const adminContext = await browser.newContext({ baseURL: harnessEnv().baseUrl })
  await new ApiClient(adminContext.request).signIn('Admin', harnessEnv().adminPassword)
  const admin = await adminContext.newPage()
  await admin.goto(`/games/${game.id}/monitor/events`)
  await expect(admin.getByText(`solved ${one.title}`).first()).toBeVisible()
  await shootAll(admin, 'play-monitor-events')
  await admin.goto(`/games/${game.id}/monitor/submissions`)
  await expect(admin.getByRole('cell', { name: 'flag{certainly-not}' })).toBeVisible()
  await shootAll(admin, 'play-monitor-submissions')
  await admin.goto(`/games/${game.id}/monitor/cheatinfo`)
  await expect(admin.getByText('No cheating detected')).toBeVisible()
  await shootAll(admin, 'play-monitor-cheatinfo')
  await adminContext.close()
})
