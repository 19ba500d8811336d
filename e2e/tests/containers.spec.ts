import type { Page } from '@playwright/test'
import { readEntryEventually } from '../../server/test/helpers/tcp.ts'
import {
  type AdminApi,
  ApiClient,
  expect as baseExpect,
  harnessEnv,
  screenshot,
  test,
} from '../harness/fixtures.ts'

// Challenge containers end to end, on the harness's Docker engine: a player starts a container
// from the challenge dialog, reaches it over TCP (it serves the team's flag), extends and
// destroys it; a second one is destroyed by an admin on /admin/instances; a solve destroys the
// running container; an organiser tries the test container in the editor.

const IMAGE = 'pennant-test-challenge:2'
/**
 * Each container start and stop adds or removes a network interface on this host, and Chromium
 * then aborts its requests in flight (ERR_NETWORK_CHANGED); the app asks again, a few seconds
 * later. Players' browsers are elsewhere and never see this; here, screens get more time.
 */
const expect = baseExpect.configure({ timeout: 20_000 })
/** The server refuses a start or destroy within 10 s of the last one, per team and challenge. */
const COOL_DOWN_MS = 10_000

interface Challenge {
  id: number
  title: string
}

/** A started game taking teams without review, with two container challenges of the test image. */
async function createGame(admin: AdminApi, name: (prefix?: string) => string) {
  const now = Date.now()
  const title = `Boxes ${name('g')}`
  const game = await admin.post<Record<string, unknown> & { id: number }>('/api/edit/games', {
    title,
    start: now - 10 * 60_000,
    end: now + 60 * 60_000,
  })
  await admin.put(`/api/edit/games/${game.id}`, { ...game, acceptWithoutReview: true })
  const challenges: Challenge[] = []
  for (const [label, category] of [
    ['Alpha', 'Pwn'],
    ['Bravo', 'Web'],
  ] as const) {
    const challengeTitle = `${label} ${name('c')}`
    const created = await admin.post<{ id: number }>(`/api/edit/games/${game.id}/challenges`, {
      title: challengeTitle,
      category,
      type: 'DynamicContainer',
    })
    await admin.put(`/api/edit/games/${game.id}/challenges/${created.id}`, {
      isEnabled: true,
      content: `Connect to the instance of **${challengeTitle}**.`,
      containerImage: IMAGE,
      containerExposePort: 8080,
      memoryLimit: 64,
    })
    challenges.push({ id: created.id, title: challengeTitle })
  }
  return { id: game.id, title, challenges: challenges as [Challenge, Challenge] }
}

/** What the test image says to a new TCP connection, retried while the service comes up. */
const readEntry = (entry: string) => readEntryEventually(entry, 20_000)

const toast = (page: Page, text: string | RegExp) =>
  page.locator('.mantine-Notification-root').filter({ hasText: text })

/** Opens a challenge from the board; returns its dialog and instance section. */
async function openChallenge(page: Page, gameId: number, challenge: Challenge) {
  await page.goto(`/games/${gameId}/challenges`)
  await page.getByRole('button', { name: new RegExp(challenge.title) }).click()
  const dialog = page.getByRole('dialog', { name: challenge.title })
  await expect(dialog.getByText(`Connect to the instance of ${challenge.title}.`)).toBeVisible()
  return { dialog, instance: dialog.getByRole('region', { name: 'Instance' }) }
}

test('a team starts, reaches, extends and destroys its container; an admin destroys one', async ({
  browser,
  adminApi,
  uniqueName,
  shootAll,
}) => {
  test.setTimeout(240_000)
  const status = await adminApi.get<{ backend: string }>('/api/ext/containers/status')
  test.skip(status.backend === 'none', 'no Docker engine here (see harness/containers.ts)')

  // Five minutes of life inside a ten-minute renewal window: Extend is available at once.
  const { containerPolicy } = await adminApi.getConfig()
  await adminApi.put('/api/admin/config', {
    containerPolicy: { ...containerPolicy, defaultLifetime: 5, extensionDuration: 10, renewalWindow: 10 },
  })
  try {
    const game = await createGame(adminApi, uniqueName)
    const [alpha, bravo] = game.challenges

    const context = await browser.newContext({ baseURL: harnessEnv().baseUrl })
    const player = new ApiClient(context.request)
    const user = uniqueName('box')
    await player.post('/api/account/register', {
      userName: user,
      password: 'Passw0rd!',
      email: `${user}@e2e.test`,
    })
    const team = await player.post<{ id: number; name: string }>('/api/team', {
      name: `Team ${user}`,
      bio: 'e2e',
    })
    await player.post(`/api/game/${game.id}`, { teamId: team.id })
    const page = await context.newPage()

    // Start: the note tells the lifetime; the entry answers with this team's flag.
    const { dialog, instance } = await openChallenge(page, game.id, alpha)
    await expect(instance).toContainText('it runs for 5 minutes')
    await instance.getByRole('button', { name: 'Start instance' }).click()
    const entryField = instance.getByRole('textbox', { name: 'Entry' })
    await expect(entryField).toHaveValue(/^[\w.-]+:\d+$/, { timeout: 30_000 })
    const entry = await entryField.inputValue()
    const answer = await readEntry(entry)
    const [, flag] = answer.match(/^flag=(\S+) team=(\d+) pennant=(\S+)$/) ?? []
    expect(answer).toBe(`flag=${flag} team=${team.id} pennant=${flag}`)
    expect(flag).toBeTruthy()
    await expect(instance.getByRole('timer')).toHaveText(/^00:0[0-5]:\d\d$/)
    await expect(instance.getByRole('link', { name: `Open ${entry} in a new tab` })).toHaveAttribute(
      'href',
      `http://${entry}`,
    )
    await expect(instance.getByRole('button', { name: 'Copy the entry' })).toBeVisible()
    await shootAll(page, 'containers-dialog')
    await expect(dialog).toBeVisible()

    // Extend: inside the window at once; afterwards more than the window is left, so it locks again.
    await instance.getByRole('button', { name: 'Extend', exact: true }).click()
    await expect(toast(page, 'Extended until').first()).toBeVisible()
    await expect(instance.getByRole('timer')).toHaveText(/^00:1[0-5]:\d\d$/)
    await expect(instance.getByRole('button', { name: 'Extend', exact: true })).toBeDisabled()
    await expect(instance).toContainText('Extend unlocks in the last 10 minutes')

    // Destroy, after a confirmation (once the start's 10-second turn is over: the server's clock is
    // moved past it); the Start button is back.
    await adminApi.advanceClock(COOL_DOWN_MS)
    await instance.getByRole('button', { name: 'Destroy', exact: true }).click()
    await page
      .getByRole('dialog', { name: 'Destroy the instance?' })
      .getByRole('button', { name: 'Destroy' })
      .click()
    await expect(toast(page, 'Instance destroyed').first()).toBeVisible()
    await expect(instance.getByRole('button', { name: 'Start instance' })).toBeVisible()

    // A second challenge's container, for the admin to find and destroy.
    const second = await openChallenge(page, game.id, bravo)
    await second.instance.getByRole('button', { name: 'Start instance' }).click()
    await expect(second.instance.getByRole('textbox', { name: 'Entry' })).toBeVisible({ timeout: 30_000 })

    const adminContext = await browser.newContext({ baseURL: harnessEnv().baseUrl })
    await new ApiClient(adminContext.request).signIn('Admin', harnessEnv().adminPassword)
    const admin = await adminContext.newPage()
    await admin.goto('/admin/instances')
    await expect(admin.getByRole('heading', { level: 1, name: 'Instances' })).toBeVisible()
    await expect(admin.getByText('Containers run on Docker')).toBeVisible()
    await admin.getByRole('textbox', { name: 'Team' }).fill(team.name)
    const rows = admin.getByRole('table', { name: 'Team containers' }).locator('tbody tr')
    await expect(rows).toHaveCount(1)
    await expect(rows.first()).toContainText(bravo.title)
    await expect(rows.first()).toContainText(game.title)
    await shootAll(admin, 'containers-instances')

    // Alpha again, once its cool-down is over.
    await adminApi.advanceClock(COOL_DOWN_MS)
    const again = await player.post<{ entry: string }>(`/api/game/${game.id}/container/${alpha.id}`)
    await admin.reload()
    await admin.getByRole('textbox', { name: 'Team' }).fill(team.name)
    await expect(rows).toHaveCount(2)
    await admin.getByRole('textbox', { name: 'Challenge' }).fill(bravo.title)
    await expect(rows).toHaveCount(1)
    await rows
      .first()
      .getByRole('button', { name: `Destroy the container of ${team.name} for ${bravo.title}` })
      .click()
    await admin
      .getByRole('dialog', { name: 'Destroy container' })
      .getByRole('button', { name: 'Destroy container' })
      .click()
    await expect(toast(admin, `Destroyed the container of ${team.name}`).first()).toBeVisible()
    await expect(admin.getByText('No container matches the filters')).toBeVisible()
    await admin.getByRole('textbox', { name: 'Challenge' }).fill('')
    await expect(rows).toHaveCount(1)
    await expect(rows.first()).toContainText(alpha.title)

    // A solve destroys the running container. The solve's destroy must wait out the restart's turn.
    const solve = await openChallenge(page, game.id, alpha)
    await expect(solve.instance.getByRole('textbox', { name: 'Entry' })).toHaveValue(again.entry)
    await adminApi.advanceClock(COOL_DOWN_MS)
    await solve.dialog.getByRole('textbox', { name: 'Flag' }).fill(flag!)
    await solve.dialog.getByRole('textbox', { name: 'Flag' }).press('Enter')
    await expect(toast(page, 'Correct!').first()).toBeVisible()
    await expect
      .poll(async () => {
        const detail = await player.get<{ context: { instanceEntry: string | null } }>(
          `/api/game/${game.id}/challenges/${alpha.id}`,
        )
        return detail.context.instanceEntry
      })
      .toBeNull()
    await admin.reload()
    await admin.getByRole('textbox', { name: 'Team' }).fill(team.name)
    await expect(rows).toHaveCount(0)

    // The monitor shows the container events.
    await admin.goto(`/games/${game.id}/monitor/events`)
    await expect(admin.getByText(`started the container of ${alpha.title}`).first()).toBeVisible()
    await expect(admin.getByText(`destroyed the container of ${alpha.title}`).first()).toBeVisible()

    // The organisers' test container, from the editor.
    await admin.goto(`/admin/games/${game.id}/challenges/${alpha.id}`)
    const tester = admin.getByRole('region', { name: 'Test container' })
    await tester.getByRole('button', { name: 'Start test container' }).click()
    await expect(tester.getByRole('textbox', { name: 'Entry' })).toHaveValue(/:\d+$/, { timeout: 30_000 })
    const testAnswer = await readEntry(await tester.getByRole('textbox', { name: 'Entry' }).inputValue())
    expect(testAnswer).toMatch(/^flag=\S+ team=/)
    await expect(tester).toContainText('Stops at')
    await tester.scrollIntoViewIfNeeded()
    await screenshot(admin, 'containers-test-container')
    await tester.getByRole('button', { name: 'Destroy test container' }).click()
    await expect(tester.getByRole('button', { name: 'Start test container' })).toBeVisible()

    // Settings says whether containers are configured too.
    await admin.goto('/admin/settings')
    await expect(admin.getByText('Containers run on Docker')).toBeVisible()

    await adminContext.close()
    await context.close()
  } finally {
    await adminApi.put('/api/admin/config', { containerPolicy })
  }
})
