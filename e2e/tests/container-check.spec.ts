import type { Page } from '@playwright/test'
import { BROKEN_IMAGES, CHALLENGE_IMAGE } from '../../server/test/helpers/challenge-image.ts'
import {
  type AdminApi,
  ApiClient,
  expect as baseExpect,
  harnessEnv,
  shootAll,
  test,
} from '../harness/fixtures.ts'

// The organisers' challenge check from the editor's "Ready to play?" panel, on the harness's
// Docker engine (its waits shortened by harness/containers.ts), for a good image and one that
// listens on the wrong port; and a running container's output on the instances page.

/** Container starts change this host's interfaces, and Chromium retries: screens get more time. */
const expect = baseExpect.configure({ timeout: 60_000 })

async function containerChallenge(admin: AdminApi, gameId: number, title: string, image: string) {
  const created = await admin.post<{ id: number }>(`/api/edit/games/${gameId}/challenges`, {
    title,
    category: 'Pwn',
    type: 'DynamicContainer',
  })
  await admin.put(`/api/edit/games/${gameId}/challenges/${created.id}`, {
    isEnabled: true,
    content: `Connect to **${title}**.`,
    containerImage: image,
    containerExposePort: 8080,
    memoryLimit: 64,
  })
  return created.id
}

/** Runs the check from the editor and waits for its checklist. */
async function runCheck(page: Page) {
  const panel = page.getByRole('region', { name: 'Check the container for real' })
  await panel.getByRole('button', { name: /^Check/ }).click()
  await expect(panel.getByRole('status')).toBeVisible()
  return panel
}

test('an organiser checks a good and a broken container challenge; an admin reads an instance’s output', async ({
  browser,
  adminApi,
  uniqueName,
}) => {
  // Ten checks of a few seconds each with every screenshot taken; starts are slow on a busy host.
  test.setTimeout(1_500_000)
  const status = await adminApi.get<{ backend: string }>('/api/ext/containers/status')
  test.skip(status.backend === 'none', 'no Docker engine here (see harness/containers.ts)')

  const now = Date.now()
  const game = await adminApi.post<Record<string, unknown> & { id: number }>('/api/edit/games', {
    title: `Checks ${uniqueName('g')}`,
    start: now - 10 * 60_000,
    end: now + 60 * 60_000,
  })
  await adminApi.put(`/api/edit/games/${game.id}`, { ...game, acceptWithoutReview: true })
  const good = await containerChallenge(adminApi, game.id, `Good ${uniqueName('c')}`, CHALLENGE_IMAGE)
  const brokenTitle = `Wrong port ${uniqueName('c')}`
  const broken = await containerChallenge(adminApi, game.id, brokenTitle, BROKEN_IMAGES.wrongPort)

  const adminContext = await browser.newContext({ baseURL: harnessEnv().baseUrl })
  await new ApiClient(adminContext.request).signIn('Admin', harnessEnv().adminPassword)
  const admin = await adminContext.newPage()

  // A good image: every step passes, the flag handed to it included.
  await admin.goto(`/admin/games/${game.id}/challenges/${good}`)
  let panel = await runCheck(admin)
  await expect(panel.getByRole('status')).toHaveText('The container passed every check.')
  const steps = panel.getByRole('list', { name: 'Check the container for real' }).getByRole('listitem')
  await expect(steps).toHaveText([
    /^The image exists — passed/,
    /^The container starts — passed/,
    /^Something answers on port 8080 — passed/,
    /^It is still running after half a minute — passed\s*running after/,
    /^It was not killed for memory — passed/,
    /^It serves the flag handed to it — passed/,
  ])
  await shootAll(admin, 'container-check-passed', () => runCheck(admin))

  // One listening on another port: the step fails in the engine's and the socket's words.
  await admin.goto(`/admin/games/${game.id}/challenges/${broken}`)
  panel = await runCheck(admin)
  await expect(panel.getByRole('status')).toHaveText(/^Something failed/)
  await expect(steps.nth(2)).toContainText('Something answers on port 8080 — failed')
  await expect(steps.nth(2)).toContainText(
    /nothing answered on port 8080 within 20\.0 s \(connect ECONNREFUSED/,
  )
  await expect(steps.nth(5)).toContainText('not checked')
  await shootAll(admin, 'container-check-failed', () => runCheck(admin))

  // A team runs the broken one; the instances page shows what it wrote.
  const context = await browser.newContext({ baseURL: harnessEnv().baseUrl })
  const player = new ApiClient(context.request)
  const user = uniqueName('chk')
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
  await player.post(`/api/game/${game.id}/container/${broken}`)

  await admin.goto('/admin/instances')
  await admin.getByRole('textbox', { name: 'Team' }).fill(team.name)
  const name = `Output of the container of ${team.name} for ${brokenTitle}`
  const openLogs = async () => {
    await admin.getByRole('textbox', { name: 'Team' }).fill(team.name)
    await admin.getByRole('button', { name }).click()
    const dialog = admin.getByRole('dialog', { name })
    await expect(dialog.getByLabel('Container output')).toContainText('listening on 8081')
    return dialog
  }
  const dialog = await openLogs()
  // Two lines on stdout, one on stderr: the engine keeps each stream's order, not theirs together.
  await expect(dialog.getByLabel('Container output')).toHaveText(/starting\nlistening on 8081/)
  await expect(dialog.getByLabel('Container output')).toContainText('warning: no config file')
  await shootAll(admin, 'container-logs', openLogs)
  await dialog.getByRole('button', { name: 'Read again' }).click()
  await expect(dialog.getByLabel('Container output')).toContainText('warning: no config file')

  await context.close()
  await adminContext.close()
})
