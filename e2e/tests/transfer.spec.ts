import { readFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import type { Page } from '@playwright/test'
import type * as Axe from 'axe-core'
import { ApiClient, expect, harnessEnv, screenshot, shootAll, test, uniqueName } from '../harness/fixtures.ts'
import { type FreshServer, startFreshServer } from '../harness/fresh-server.ts'
import { field, fillRegistration, toast } from './account-helpers.ts'

// Game transfer: a game exported from the run's server through the admin game list is imported
// into a second server (its own database) through the same list, previewed first, and played there.

let target: FreshServer

test.beforeAll(async () => {
  target = await startFreshServer('transfer')
})

test.afterAll(async () => {
  await target?.stop()
})

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

/** axe-core's critical and serious findings inside `selector` (the transfer's own views); the
 * page's context must have `AXE_SOURCE` as an init script (the CSP refuses a script tag). */
async function seriousViolations(page: Page, selector: string): Promise<string[]> {
  return page.evaluate(async (include) => {
    const { axe } = window as unknown as { axe: typeof Axe }
    const { violations } = await axe.run({ include: [[include]] }, { resultTypes: ['violations'] })
    return violations
      .filter((v) => v.impact === 'critical' || v.impact === 'serious')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
  }, selector)
}

async function logIn(page: Page, password: string) {
  await page.goto('/account/login')
  await field(page, 'User name or e-mail').fill('Admin')
  await field(page, 'Password').fill(password)
  await page.getByRole('button', { name: 'Log in' }).click()
  // Signed in (the password hash takes a while on a busy machine): the admin area is offered.
  await expect(page.getByRole('link', { name: 'Admin', exact: true }).first()).toBeVisible({
    timeout: 30_000,
  })
}

test('a game exported from one server is imported into another and played there', async ({
  browser,
  adminApi,
}) => {
  test.setTimeout(240_000)
  const title = `Moved ${uniqueName('g')}`
  const challenge = `Travelled ${uniqueName('c')}`
  const flag = `flag{${uniqueName('f')}}`

  // The source: the run's server, with the switch on and a game of one static challenge.
  await adminApi.put('/api/ext/features', { gameTransfer: true })
  try {
    const game = (await adminApi.post('/api/edit/games', {
      title,
      start: Date.now() - 3600_000,
      end: Date.now() + 24 * 3600_000,
      acceptWithoutReview: true,
    })) as { id: number }
    const c = (await adminApi.post(`/api/edit/games/${game.id}/challenges`, { title: challenge })) as {
      id: number
    }
    await adminApi.post(`/api/edit/games/${game.id}/challenges/${c.id}/flags`, [{ flag }])
    await adminApi.put(`/api/edit/games/${game.id}/challenges/${c.id}`, { isEnabled: true })
    // A link attachment travels as a link, and the preview says so.
    await adminApi.post(`/api/edit/games/${game.id}/challenges/${c.id}/attachment`, {
      attachmentType: 'Remote',
      remoteUrl: 'https://files.example.org/handout.zip',
    })

    const source = await browser.newContext({ baseURL: harnessEnv().baseUrl, acceptDownloads: true })
    await source.addInitScript({ content: AXE_SOURCE })
    const page = await source.newPage()
    await logIn(page, harnessEnv().adminPassword)
    await page.goto('/admin/games')
    const openMenu = () => page.getByRole('button', { name: `Export ${title}` }).click()
    await openMenu()
    await shootAll(page, 'transfer-export-menu', openMenu)
    expect(await seriousViolations(page, 'main')).toEqual([])
    expect(await seriousViolations(page, '[role="menu"]')).toEqual([])
    const downloading = page.waitForEvent('download')
    await page.getByRole('menuitem', { name: 'Game only' }).click()
    const download = await downloading
    expect(download.suggestedFilename()).toBe(`game-${game.id}.pennant.zip`)
    // Read before the context closes: its downloads go with it.
    const archive = await readFile(await download.path())
    expect(archive.subarray(0, 2).toString()).toBe('PK')
    await source.close()

    // The target: a new install; its admin turns the switch on and imports the archive.
    const targetAdmin = await (await ApiClient.create(target.url)).signIn('Admin', target.adminPassword)
    await targetAdmin.put('/api/ext/features', { gameTransfer: true })
    await targetAdmin.dispose()
    const organiser = await browser.newContext({ baseURL: target.url })
    await organiser.addInitScript({ content: AXE_SOURCE })
    const admin = await organiser.newPage()
    await logIn(admin, target.adminPassword)
    await admin.goto('/admin/games')
    const dialog = admin.getByRole('dialog', { name: 'Import a game' })
    const summary = dialog.getByRole('table')
    const openPreview = async () => {
      await admin.getByRole('button', { name: 'Import game' }).click()
      await expect(dialog.getByText('No file chosen')).toBeVisible()
      await dialog
        .locator('input[type=file]')
        .setInputFiles({ name: 'moved.pennant.zip', mimeType: 'application/zip', buffer: archive })
      await expect(dialog.getByText(/moved\.pennant\.zip/)).toBeVisible()
      await dialog.getByRole('button', { name: 'Preview' }).click()
      await expect(summary).toBeVisible()
    }
    await admin.getByRole('button', { name: 'Import game' }).click()
    await expect(
      dialog.getByRole('checkbox', { name: 'Also import teams and submissions' }),
    ).not.toBeChecked()
    await screenshot(admin, 'transfer-import-choose')
    expect(await seriousViolations(admin, '[role="dialog"]')).toEqual([])
    await admin.keyboard.press('Escape')
    await expect(dialog).toBeHidden()
    await openPreview()
    await expect(summary.getByRole('row', { name: /Title/ })).toContainText(title)
    await expect(summary.getByRole('row', { name: /Challenges/ })).toContainText('1')
    await expect(summary.getByRole('row', { name: /Flags/ })).toContainText('1')
    await expect(summary.getByRole('row', { name: /Attachments/ })).toContainText('1')
    await expect(dialog.getByRole('alert')).toContainText(
      'Attachments that are links to other sites stay links: 1',
    )
    await shootAll(admin, 'transfer-import-preview', openPreview)
    expect(await seriousViolations(admin, '[role="dialog"]')).toEqual([])
    await dialog.getByRole('button', { name: 'Import as a new game' }).click()
    await expect(toast(admin, `Game ${title} imported`)).toBeVisible()
    await expect(admin).toHaveURL(/\/admin\/games\/\d+\/info$/)
    await organiser.close()

    // A player of the target server joins and solves the imported challenge.
    const player = await browser.newContext({ baseURL: target.url })
    const play = await player.newPage()
    const userName = uniqueName('pl')
    const team = `Team ${uniqueName('t')}`
    await play.goto('/account/register')
    await fillRegistration(play, { email: `${userName}@example.com`, userName, password: 'Passw0rd!' })
    await play.getByRole('button', { name: 'Register' }).click()
    await expect(play).not.toHaveURL(/\/account\/register/)
    await play.goto('/teams')
    await play.getByRole('button', { name: 'Create team' }).click()
    const create = play.getByRole('dialog', { name: 'Create a team' })
    await create.getByRole('textbox', { name: 'Team name' }).fill(team)
    await create.getByRole('button', { name: 'Create' }).click()
    await expect(play.getByRole('article', { name: team })).toBeVisible()
    await play.goto('/games')
    await play.getByRole('link', { name: title }).first().click()
    await play.getByRole('button', { name: 'Join this game' }).click()
    await play
      .getByRole('dialog', { name: 'Before you join' })
      .getByRole('button', { name: 'I agree' })
      .click()
    const join = play.getByRole('dialog', { name: `Join ${title}` })
    await join.getByRole('button', { name: 'Join', exact: true }).click()
    await expect(play.getByRole('button', { name: 'Joined' })).toBeDisabled()
    await play.getByRole('link', { name: 'Challenges' }).first().click()
    const card = play.getByRole('button', { name: new RegExp(challenge) })
    await card.click()
    const chal = play.getByRole('dialog', { name: challenge })
    await chal.getByRole('textbox', { name: 'Flag' }).fill(flag)
    await chal.getByRole('button', { name: 'Submit' }).click()
    await expect(toast(play, 'Correct!')).toBeVisible()
    await expect(card).toContainText('Solved')
    await player.close()
  } finally {
    await adminApi.put('/api/ext/features', { gameTransfer: false })
  }
})
