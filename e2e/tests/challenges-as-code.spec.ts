import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import type { Page } from '@playwright/test'
import { zipSync } from 'fflate'
import { ApiClient, expect, harnessEnv, test } from '../harness/fixtures.ts'
import { field } from './account-helpers.ts'

// Challenges as code in the admin screens: a real challenge folder (the cli's gzcli fixtures) is
// zipped, uploaded to a game, its plan shown field by field, applied, and a player sees the result.

const FIXTURES = join(import.meta.dirname, '../../cli/test/fixtures/gzcli')

/** `folders` zipped as an organiser's `challenges/` folder. */
function zipOf(folders: Record<string, string>): Buffer {
  const files: Record<string, Uint8Array> = {}
  for (const [prefix, dir] of Object.entries(folders)) {
    const walk = (d: string) => {
      for (const name of readdirSync(d)) {
        const p = join(d, name)
        if (statSync(p).isDirectory()) walk(p)
        else files[`challenges/${prefix}/${relative(dir, p)}`] = readFileSync(p)
      }
    }
    walk(dir)
  }
  return Buffer.from(zipSync(files))
}

async function logIn(page: Page) {
  await page.goto('/account/login')
  await field(page, 'User name or e-mail').fill('Admin')
  await field(page, 'Password').fill(harnessEnv().adminPassword)
  await page.getByRole('button', { name: 'Log in' }).click()
  await expect(page.getByRole('link', { name: 'Admin', exact: true }).first()).toBeVisible({
    timeout: 30_000,
  })
}

test('a zipped challenge folder is planned, applied, and played', async ({
  browser,
  adminApi,
  uniqueName,
}) => {
  test.setTimeout(180_000)
  const game = await adminApi.post<{ id: number }>('/api/edit/games', {
    title: `As code ${uniqueName('g')}`,
    start: Date.now() - 3600_000,
    end: Date.now() + 24 * 3600_000,
    acceptWithoutReview: true,
  })
  const zip = zipOf({
    'Misc/test': join(FIXTURES, 'testdata/Misc/test-challenge'),
    'Misc/static-attachment': join(FIXTURES, 'tree/Misc/static-attachment'),
  })

  const context = await browser.newContext()
  const page = await context.newPage()
  await logIn(page)
  await page.goto(`/admin/games/${game.id}/challenges`)
  await page.getByRole('button', { name: 'Upload a folder' }).click()
  const dialog = page.getByRole('dialog', { name: 'Challenges from a folder' })
  await dialog
    .locator('input[type=file]')
    .setInputFiles({ name: 'challenges.zip', mimeType: 'application/zip', buffer: zip })
  await expect(dialog.getByText(/challenges\.zip/)).toBeVisible()
  await dialog.getByRole('button', { name: 'Show the plan' }).click()

  // The plan: two challenges to create, keyed by folder; the file's warnings name file and line.
  const plan = dialog.getByRole('list', { name: 'The plan' })
  await expect(plan.getByRole('listitem')).toHaveCount(2)
  await expect(plan.getByText('Misc/test', { exact: true })).toBeVisible()
  await expect(plan.getByText('Misc/static-attachment', { exact: true })).toBeVisible()
  await expect(plan.getByText('Create')).toHaveCount(2)
  await expect(
    dialog.getByText('challenges/Misc/test/challenge.yaml:12: scripts:', { exact: false }),
  ).toBeVisible()
  expect(await adminApi.get<unknown[]>(`/api/edit/games/${game.id}/challenges`)).toEqual([])

  await dialog.getByRole('button', { name: 'Apply' }).click()
  await expect(page.getByText('2 applied, 0 failed')).toBeVisible()
  await expect(dialog).toBeHidden()
  const list = page.getByRole('list', { name: 'Challenges' })
  await expect(list.getByRole('link', { name: 'Test Challenge', exact: true })).toBeVisible()
  await expect(list.getByRole('link', { name: 'static-attachment', exact: true })).toBeVisible()

  // Edited on the server, the same folder shows the change field by field.
  const [c] = (
    await adminApi.get<{ id: number; sourceKey: string }[]>(`/api/edit/games/${game.id}/challenges`)
  ).filter((x) => x.sourceKey === 'Misc/test')
  await adminApi.put(`/api/edit/games/${game.id}/challenges/${c!.id}`, { title: 'Renamed by hand' })
  await page.getByRole('button', { name: 'Upload a folder' }).click()
  await dialog
    .locator('input[type=file]')
    .setInputFiles({ name: 'challenges.zip', mimeType: 'application/zip', buffer: zip })
  await dialog.getByRole('button', { name: 'Show the plan' }).click()
  const row = dialog.getByRole('row', { name: /title/ })
  await expect(row).toContainText('Renamed by hand')
  await expect(row).toContainText('Test Challenge')
  await expect(dialog.getByText('Unchanged')).toBeVisible()
  await dialog.getByRole('button', { name: 'Apply' }).click()
  await expect(page.getByText('1 applied, 0 failed')).toBeVisible()
  await context.close()

  // A player sees the visible challenge as the file wrote it (the other file leaves it hidden).
  const playing = await browser.newContext({ baseURL: harnessEnv().baseUrl })
  const api = new ApiClient(playing.request)
  const user = uniqueName('cp')
  await api.post('/api/account/register', {
    userName: user,
    password: 'Passw0rd!',
    email: `${user}@e2e.test`,
  })
  const team = await api.post<{ id: number }>('/api/team', { name: `Team ${uniqueName('ct')}`, bio: 'e2e' })
  await api.post(`/api/game/${game.id}`, { teamId: team.id })
  const player = await playing.newPage()
  await player.goto(`/games/${game.id}/challenges`)
  await player
    .getByRole('button', { name: /Test Challenge/ })
    .first()
    .click()
  await expect(player.getByText('Test Description')).toBeVisible()
  await expect(player.getByText('static-attachment')).toHaveCount(0)
  await playing.close()
})
