import type { Locator, Page } from '@playwright/test'
import { expect, screenshot, test, uniqueName } from '../harness/fixtures.ts'
import { type FreshServer, startFreshServer } from '../harness/fresh-server.ts'
import { field, fillRegistration, toast } from './account-helpers.ts'

// An organiser's first game on a new install: from the first sign-in with the printed password
// to a game a player can play, in at most 8 clicks. Typing is free; every click the organiser
// makes (choosing from a menu too) goes through `clicks.on`, which counts it.

const MOST_CLICKS = 8

let server: FreshServer

test.beforeAll(async () => {
  server = await startFreshServer('first-game')
})

test.afterAll(async () => {
  await server?.stop()
})

/** Clicks made through it are counted; `made` lists them, so a failure says where they went. */
function clickCounter() {
  const made: string[] = []
  return {
    made,
    async on(target: Locator, what: string, options?: { force?: boolean }) {
      made.push(what)
      await target.click(options)
    },
  }
}

async function organiserMakesAGame(page: Page, game: string, challenge: string, flag: string) {
  const clicks = clickCounter()

  await page.goto('/account/login')
  await field(page, 'User name or e-mail').fill('Admin')
  await field(page, 'Password').fill(server.adminPassword)
  await clicks.on(page.getByRole('button', { name: 'Log in' }), 'log in')
  // A printed password asks to be replaced, without standing in the way.
  await expect(page.getByText('Choose your own password')).toBeVisible()

  await clicks.on(page.getByRole('link', { name: 'Admin', exact: true }).first(), 'Admin in the navigation')
  await expect(page.getByText('No game yet')).toBeVisible()
  await clicks.on(page.getByRole('button', { name: 'New game' }).first(), 'New game')
  const newGame = page.getByRole('dialog', { name: 'New game' })
  await newGame.getByRole('textbox', { name: 'Title' }).fill(game)
  // The defaults make it playable: it starts now, runs a week, and teams join without review.
  await expect(newGame.getByRole('switch', { name: 'Accept teams without review' })).toBeChecked()
  await clicks.on(newGame.getByRole('button', { name: 'Create game' }), 'Create game')
  await expect(page).toHaveURL(/\/admin\/games\/\d+\/challenges$/)

  await clicks.on(page.getByRole('button', { name: 'New challenge' }).first(), 'New challenge')
  const newChallenge = page.getByRole('dialog', { name: 'New challenge' })
  await newChallenge.getByRole('textbox', { name: 'Title' }).fill(challenge)
  await newChallenge.getByRole('textbox', { name: 'Flag' }).fill(flag)
  await screenshot(page, 'first-game-new-challenge')
  await clicks.on(newChallenge.getByRole('button', { name: 'Create and edit' }), 'Create and edit')
  await expect(page).toHaveURL(/\/challenges\/\d+$/)
  const checklist = page.getByRole('region', { name: 'Ready to play?' })
  await expect(checklist.getByText('Flags — done')).toBeVisible()

  // The Mantine switch draws over its input: the click lands on the input itself.
  await clicks.on(checklist.getByRole('switch', { name: 'Open to players' }), 'Open to players', {
    force: true,
  })
  const confirmBox = page.getByRole('dialog', { name: 'Enable during the game?' })
  await clicks.on(confirmBox.getByRole('button', { name: 'Enable' }), 'Enable (confirm)')
  await expect(checklist.getByText('Players see this challenge.')).toBeVisible()

  expect(clicks.made.length, `the organiser's clicks:\n${clicks.made.join('\n')}`).toBeLessThanOrEqual(
    MOST_CLICKS,
  )
  return clicks.made
}

test('an organiser makes a playable game in at most 8 clicks and a player solves it', async ({ browser }) => {
  test.setTimeout(120_000)
  const game = `First ${uniqueName('g')}`
  const challenge = `Warm-up ${uniqueName('c')}`
  const flag = `flag{${uniqueName('f')}}`

  const organiser = await browser.newContext({ baseURL: server.url })
  const made = await organiserMakesAGame(await organiser.newPage(), game, challenge, flag)
  test
    .info()
    .annotations.push({ type: 'organiser clicks', description: `${made.length}: ${made.join(', ')}` })
  await organiser.close()

  // A player: registers, makes a team and joins, all through the pages.
  const player = await browser.newContext({ baseURL: server.url })
  const page = await player.newPage()
  const userName = uniqueName('pl')
  const team = `Team ${uniqueName('t')}`
  await page.goto('/account/register')
  await fillRegistration(page, { email: `${userName}@example.com`, userName, password: 'Passw0rd!' })
  await page.getByRole('button', { name: 'Register' }).click()
  await expect(page).not.toHaveURL(/\/account\/register/)

  await page.goto('/teams')
  await page.getByRole('button', { name: 'Create team' }).click()
  const create = page.getByRole('dialog', { name: 'Create a team' })
  await create.getByRole('textbox', { name: 'Team name' }).fill(team)
  await create.getByRole('button', { name: 'Create' }).click()
  await expect(page.getByRole('article', { name: team })).toBeVisible()

  await page.goto('/games')
  await page.getByRole('link', { name: game }).first().click()
  await expect(page.getByRole('heading', { level: 1, name: game })).toBeVisible()
  await page.getByRole('button', { name: 'Join this game' }).click()
  await page.getByRole('dialog', { name: 'Before you join' }).getByRole('button', { name: 'I agree' }).click()
  const join = page.getByRole('dialog', { name: `Join ${game}` })
  await join.getByRole('button', { name: 'Join', exact: true }).click()
  await expect(join).toBeHidden()
  // Accepted at once: the game's default.
  await expect(page.getByRole('button', { name: 'Joined' })).toBeDisabled()
  await expect(page.getByText('Waiting for review')).toHaveCount(0)

  // The challenge, the flag, the solve.
  await page.getByRole('link', { name: 'Challenges' }).first().click()
  const card = page.getByRole('button', { name: new RegExp(challenge) })
  await card.click()
  const dialog = page.getByRole('dialog', { name: challenge })
  await dialog.getByRole('textbox', { name: 'Flag' }).fill(flag)
  // The judge answers within milliseconds here: its first answer is held back a moment to see
  // what a player sees meanwhile, a busy Submit button.
  await page.route(/\/status\/\d+$/, (route) => setTimeout(() => void route.continue(), 1_000), { times: 1 })
  await dialog.getByRole('button', { name: 'Submit' }).click()
  await expect(dialog.getByRole('button', { name: 'Judging' })).toHaveAttribute('aria-busy', 'true')
  await expect(toast(page, 'Correct!')).toBeVisible()
  await expect(dialog).toBeHidden()
  await expect(card).toContainText('Solved')

  // The scoreboard ranks the team first, with the challenge's points.
  await page.getByRole('link', { name: 'Scoreboard' }).first().click()
  const row = page
    .getByRole('region', { name: 'Ranking table' })
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name: team }) })
  await expect(row.locator('td').first()).toHaveText('1')
  await expect(row).toContainText('Your team')
  await expect(row).toContainText(`First blood: ${challenge}`)
  await player.close()
})
