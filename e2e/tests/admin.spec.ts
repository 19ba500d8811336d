import { type BrowserContext, type Locator, type Page, request } from '@playwright/test'
import { ApiClient, expect, harnessEnv, screenshot, test, uniqueName } from '../harness/fixtures.ts'
import { field, tinyPng, toast } from './account-helpers.ts'

// The admin screens as an admin uses them: Users (search, edit, ban, password reset, batch
// creation from pasted CSV), Teams, Logs, Files, Settings and API tokens. The tests share one
// admin browser session and run in order: the Logs test reads what the earlier ones did.

test.describe.configure({ mode: 'serial' })

const PASSWORD = 'Start1pass'

interface Session {
  context: BrowserContext
  page: Page
  /** The same cookie jar as the page. */
  api: ApiClient
}

interface TeamInfo {
  id: number
  name: string
  locked: boolean
  members: { userName: string; captain: boolean }[]
}

const dialog = (page: Page, name: string | RegExp) => page.getByRole('dialog', { name })

/** Types into a search box key by key, as a person would (the lists debounce the text). */
async function search(page: Page, label: string, text: string) {
  const box = page.getByRole('searchbox', { name: label })
  await box.clear()
  if (text) await box.pressSequentially(text, { delay: 20 })
}

/** The Users table row of a user, found by their exact name. */
const userRow = (page: Page, userName: string) =>
  page
    .getByRole('table', { name: 'Users' })
    .getByRole('row')
    .filter({ has: page.getByText(userName, { exact: true }) })

/** A team's card on the Teams screen. */
const teamCard = (page: Page, name: string): Locator =>
  page
    .getByRole('list', { name: 'Teams' })
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { name, exact: true }) })

test.describe('administration', () => {
  let admin: Session
  /** Users made for the Users screen tests (through the API: their creation is not the point). */
  const banned = uniqueName('ban')
  const reset = uniqueName('rst')
  /** The batch: two teams of ten, sharing a prefix so one search finds both. */
  const teamBase = uniqueName('bt')
  const teamNames = [`${teamBase}a`, `${teamBase}b`] as const
  const renamed = `${teamBase}moved`
  const batch = Array.from({ length: 20 }, (_, i) => {
    const userName = uniqueName('m')
    return {
      userName,
      email: `${userName}@example.org`,
      password: `Batch${i}Pass`,
      teamName: teamNames[Math.floor(i / 10)]!,
    }
  })
  let avatarHash = ''

  test.beforeAll(async ({ browser }) => {
    const context = await browser.newContext({ baseURL: harnessEnv().baseUrl })
    const api = await new ApiClient(context.request).signIn('Admin', harnessEnv().adminPassword)
    admin = { context, page: await context.newPage(), api }
    await api.post('/api/admin/users', [
      { userName: banned, email: `${banned}@example.org`, password: PASSWORD },
      { userName: reset, email: `${reset}@example.org`, password: PASSWORD },
    ])
  })

  test.afterAll(async () => {
    await admin?.context.close()
  })

  test('a ban found through the search ends the user’s open session and refuses their sign-in', async ({
    browser,
  }) => {
    const { page } = admin
    // The user is signed in, with a page open.
    const context = await browser.newContext({ baseURL: harnessEnv().baseUrl })
    const user = await new ApiClient(context.request).signIn(banned, PASSWORD)
    const userPage = await context.newPage()
    await userPage.goto('/teams')
    await expect(userPage.getByRole('heading', { level: 1, name: 'Teams' })).toBeVisible()

    // The admin types part of the name; the debounced search finds the one user.
    await page.goto('/admin/users')
    await expect(page.getByRole('heading', { level: 1, name: 'Users' })).toBeVisible()
    const part = banned.slice(2)
    await search(page, 'Search users', part)
    await expect(page.getByText(`Matches for “${part}”: 1`)).toBeVisible()
    await expect(userRow(page, banned)).toHaveCount(1)
    await expect(userRow(page, banned).getByText('User', { exact: true })).toBeVisible()

    // Edit: role Banned.
    await page.getByRole('button', { name: `Edit ${banned}` }).click()
    const edit = dialog(page, `Edit ${banned}`)
    await expect(edit.getByRole('textbox', { name: 'User name' })).toHaveValue(banned)
    await edit.getByRole('combobox', { name: 'Role' }).selectOption('Banned')
    await edit.getByRole('button', { name: 'Save' }).click()
    await expect(toast(page, `${banned} saved`)).toBeVisible()
    await expect(edit).toBeHidden()
    await expect(userRow(page, banned).getByText('Banned', { exact: true })).toBeVisible()
    await expect(page.getByRole('button', { name: `Unban ${banned} (as a user)` })).toBeVisible()

    // The user's session ended at once: their next call is refused, a reload sends them to log in.
    expect((await user.raw('GET', '/api/account/profile')).status()).toBe(401)
    await userPage.reload()
    await expect(userPage).toHaveURL(/\/account\/login\?from=%2Fteams$/)
    // Signing in again (with the right password) says why not.
    await field(userPage, 'User name or e-mail').fill(banned)
    await field(userPage, 'Password').fill(PASSWORD)
    await userPage.getByRole('button', { name: 'Log in' }).click()
    await expect(toast(userPage, 'This account is disabled')).toBeVisible()
    await expect(userPage).toHaveURL(/\/account\/login/)
    const again = await ApiClient.create(harnessEnv().baseUrl)
    const refused = await again.raw('POST', '/api/account/login', { userName: banned, password: PASSWORD })
    expect(refused.status()).toBe(401)
    expect(await refused.text()).toContain('This account is disabled')
    await again.dispose()
    await context.close()
  })

  test('a password reset shows the new password once; it works and the old one does not', async () => {
    const { page } = admin
    const user = await (await ApiClient.create(harnessEnv().baseUrl)).signIn(reset, PASSWORD)
    await search(page, 'Search users', reset)
    await expect(page.getByText(`Matches for “${reset}”: 1`)).toBeVisible()

    await page.getByRole('button', { name: `Reset the password of ${reset}` }).click()
    const ask = dialog(page, 'Reset password')
    await expect(ask).toContainText(`Give ${reset} a new random password?`)
    await ask.getByRole('button', { name: 'Reset password' }).click()
    const shown = dialog(page, `New password for ${reset}`)
    const passwordField = shown.getByRole('textbox', { name: 'Password' })
    await expect(passwordField).not.toHaveValue('')
    const resetPassword = await passwordField.inputValue()
    expect(resetPassword).not.toBe(PASSWORD)
    await shown.getByRole('button', { name: 'Done' }).click()
    await expect(shown).toBeHidden()

    // Their sessions ended; the new password signs in, the old one is refused.
    expect((await user.raw('GET', '/api/account/profile')).status()).toBe(401)
    await user.dispose()
    const fresh = await ApiClient.create(harnessEnv().baseUrl)
    const old = await fresh.raw('POST', '/api/account/login', { userName: reset, password: PASSWORD })
    expect(old.status()).toBe(401)
    await fresh.signIn(reset, resetPassword)
    expect(await fresh.get('/api/account/profile')).toMatchObject({ userName: reset })
    await fresh.dispose()
  })

  test('twenty users in two teams from pasted CSV: a bad row is caught in the preview first', async () => {
    const { page } = admin
    const csv = (rows: typeof batch) =>
      [
        'userName,email,password,teamName',
        ...rows.map((r) => `${r.userName},${r.email},${r.password},${r.teamName}`),
      ].join('\n')

    await search(page, 'Search users', '')
    await page.getByRole('button', { name: 'Add users' }).click()
    const box = dialog(page, 'Add users')
    const text = box.getByRole('textbox', { name: 'Users to add' })
    const preview = box.getByRole('table', { name: 'Users to create, with the problems found' })
    const bodyRows = preview.locator('tbody tr')
    const create = box.getByRole('button', { name: 'Create 20 users' })

    // A weak password on row 4: marked, and nothing can be created.
    await text.fill(csv(batch.map((r, i) => (i === 3 ? { ...r, password: 'weak' } : r))))
    await box.getByRole('button', { name: 'Check rows' }).click()
    await expect(box.getByText('Fix the text before creating anything')).toBeVisible()
    await expect(box.getByText('Rows with problems: 1. They are marked in red below.')).toBeVisible()
    await expect(bodyRows).toHaveCount(20)
    const bad = preview.locator('tbody tr[aria-invalid="true"]')
    await expect(bad).toHaveCount(1)
    await expect(bad.getByRole('rowheader')).toHaveText('4')
    await expect(bad).toContainText(
      'Password: needs at least 6 characters, with a digit, a lowercase letter and an uppercase letter',
    )
    await expect(create).toBeDisabled()

    // Fixed: 20 rows, 2 teams, no problem; the first row of each team captains it.
    await box.getByRole('button', { name: 'Back to the text' }).click()
    await text.fill(csv(batch))
    await box.getByRole('button', { name: 'Check rows' }).click()
    await expect(box.getByText('Ready: 20 users and 2 new teams')).toBeVisible()
    await expect(box.getByText('The first row was read as column names.')).toBeVisible()
    await expect(bodyRows).toHaveCount(20)
    await expect(preview.locator('tbody tr[aria-invalid]')).toHaveCount(0)
    const captains = preview.locator('tbody tr').filter({ hasText: 'captain' })
    await expect(captains.getByRole('rowheader')).toHaveText(['1', '11'])
    await expect(create).toBeEnabled()
    await screenshot(page, 'admin-batch-preview')

    await create.click()
    // Twenty password hashes: over 10 s when the server shares a busy machine (seen in npm test).
    await expect(box.getByRole('status')).toHaveText(/Created or updated 20 users and created 2 teams\./, {
      timeout: 60_000,
    })
    await expect(toast(page, 'Created or updated 20 users and created 2 teams.')).toBeVisible()
    await box.getByRole('button', { name: 'Close' }).filter({ hasText: 'Close' }).click()
    await expect(box).toBeHidden()
    await expect(page.getByText(/^Users 1–\d+ of \d+$/)).toBeVisible()
    await screenshot(page, 'admin-users')

    // The Teams screen: both teams, ten members each, the first row's user as the captain.
    await page.goto('/admin/teams')
    await expect(page.getByRole('heading', { level: 1, name: 'Teams' })).toBeVisible()
    await search(page, 'Search teams', teamBase)
    await expect(page.getByText(`Matches for “${teamBase}”: 2`)).toBeVisible()
    for (const [t, team] of teamNames.entries()) {
      const card = teamCard(page, team)
      const members = card.getByRole('list', { name: 'Members (10)' })
      await expect(members.getByRole('listitem')).toHaveCount(10)
      await expect(card.getByRole('img', { name: 'Captain' })).toHaveCount(1)
      await expect(
        members
          .getByRole('listitem')
          .filter({ has: page.getByText(batch[t * 10]!.userName, { exact: true }) })
          .getByRole('img', { name: 'Captain' }),
      ).toBeVisible()
      await expect(card.getByText('Unlocked')).toBeVisible()
    }

    // One of them signs in with the password from the list, and is in the team; an avatar gives
    // the Files screen something to list.
    const member = batch[6]!
    const client = await (await ApiClient.create(harnessEnv().baseUrl)).signIn(
      member.userName,
      member.password,
    )
    const mine = await client.get<TeamInfo[]>('/api/team')
    expect(mine.map((t) => t.name)).toEqual([teamNames[0]])
    const xsrf = (await client.context.storageState()).cookies.find((c) => c.name === 'XSRF-TOKEN')?.value
    const uploaded = await client.context.put('/api/account/avatar', {
      headers: { 'X-XSRF-TOKEN': xsrf ?? '' },
      multipart: { file: { name: 'me.png', mimeType: 'image/png', buffer: tinyPng(24, [30, 160, 90]) } },
    })
    expect(uploaded.status()).toBe(200)
    avatarHash = (await uploaded.json()).split('/')[2]
    expect(avatarHash).toMatch(/^[0-9a-f]{64}$/)
    await client.dispose()
  })

  test('a team renamed and locked on the Teams screen', async () => {
    const { page } = admin
    const [team] = teamNames
    await page.getByRole('button', { name: `Edit ${team}` }).click()
    const edit = dialog(page, `Edit ${team}`)
    await expect(edit.getByText('Members (10)')).toBeVisible()
    await edit.getByRole('textbox', { name: 'Team name' }).fill(renamed)
    await edit.getByRole('button', { name: 'Save' }).click()
    await expect(toast(page, `${renamed} saved`)).toBeVisible()
    await expect(edit).toBeHidden()
    const card = teamCard(page, renamed)
    await expect(card).toBeVisible()
    await expect(teamCard(page, team)).toHaveCount(0)

    await card.getByRole('button', { name: `Lock ${renamed}` }).click()
    await expect(toast(page, `${renamed} is locked: its members cannot change`)).toBeVisible()
    await expect(card.getByText('Locked', { exact: true })).toBeVisible()
    await expect(card.getByRole('button', { name: `Unlock ${renamed}` })).toBeVisible()

    // Saved: a new search (a new request) shows it so, and so does the API.
    await search(page, 'Search teams', renamed)
    await expect(page.getByText(`Matches for “${renamed}”: 1`)).toBeVisible()
    await expect(teamCard(page, renamed).getByText('Locked', { exact: true })).toBeVisible()
    const found = await admin.api.post<{ data: TeamInfo[] }>(
      `/api/admin/teams/search?hint=${encodeURIComponent(renamed)}`,
    )
    expect(found.data.map((t) => [t.name, t.locked, t.members.length])).toEqual([[renamed, true, 10]])

    await search(page, 'Search teams', teamBase)
    await expect(page.getByText(`Matches for “${teamBase}”: 2`)).toBeVisible()
    await expect(teamCard(page, renamed).getByText('Locked', { exact: true })).toBeVisible()
    await screenshot(page, 'admin-teams')
  })

  test('the log shows what the admin did; the Warning level only warnings', async () => {
    const { page } = admin
    await page.goto('/admin/logs')
    await expect(page.getByRole('heading', { level: 1, name: 'Logs' })).toBeVisible()
    const table = page.getByRole('table', { name: 'Log records, newest first' })
    const messages = [
      `Admin made ${banned} Banned`,
      `Admin reset the password of ${reset}`,
      'Admin created or updated 20 users and 2 teams',
      `Admin edited the team ${renamed} (was ${teamNames[0]})`,
      `Admin locked the team ${renamed}`,
    ]
    for (const message of messages) await expect(table.getByRole('cell', { name: message })).toBeVisible()
    const wrong = table.getByRole('cell', { name: `Wrong password for ${reset}` })
    await expect(wrong).toBeVisible()
    await screenshot(page, 'admin-logs')

    await page.getByRole('combobox', { name: 'Level' }).selectOption('Warning')
    await expect(table.getByRole('cell', { name: messages[0] })).toHaveCount(0)
    await expect(wrong).toBeVisible()
    const levels = await table.locator('tbody tr td:nth-child(2)').allTextContents()
    expect(levels.length).toBeGreaterThan(0)
    expect(new Set(levels)).toEqual(new Set(['Warning']))
  })

  test('an API token opens a game’s monitor routes from outside, and nothing else; revoked, none', async () => {
    const { page } = admin
    const hour = 3_600_000
    const game = await admin.api.post<{ id: number }>('/api/edit/games', {
      title: `Watched ${uniqueName('g')}`,
      start: Date.now() - hour,
      end: Date.now() + hour,
    })
    const name = `Scoreboard ${uniqueName('tk')}`

    await page.goto('/admin/tokens')
    await expect(page.getByRole('heading', { level: 1, name: 'API tokens' })).toBeVisible()
    await page.getByRole('button', { name: 'New token' }).click()
    const create = dialog(page, 'New API token')
    await create.getByRole('textbox', { name: 'Name' }).fill(name)
    await create.getByRole('button', { name: 'Create token' }).click()
    const secret = dialog(page, `Token “${name}” created`)
    const tokenField = secret.getByRole('textbox', { name: 'Token' })
    await expect(tokenField).not.toHaveValue('')
    const token = await tokenField.inputValue()
    await secret.getByRole('button', { name: 'I have copied it' }).click()
    await expect(secret).toBeHidden()
    // Shown once: neither the page nor the list of tokens has it any more.
    await expect(page.getByText(token)).toHaveCount(0)
    expect(JSON.stringify(await admin.api.get('/api/tokens'))).not.toContain(token)
    const item = page
      .getByRole('list', { name: 'API tokens' })
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { name, exact: true }) })
    await expect(item.getByText('Active', { exact: true })).toBeVisible()
    await screenshot(page, 'admin-tokens')

    // From outside the browser: no cookies, only the token.
    const outside = await request.newContext({
      baseURL: harnessEnv().baseUrl,
      extraHTTPHeaders: { Authorization: `Bearer ${token}` },
    })
    try {
      const events = await outside.get(`/api/game/${game.id}/events`)
      expect(events.status()).toBe(200)
      expect(await events.json()).toEqual(expect.any(Array))
      expect((await outside.get('/api/admin/users')).status()).toBe(401)

      await item.getByRole('button', { name: `Revoke the token ${name}` }).click()
      await expect(toast(page, `Revoked “${name}”: it no longer works until restored`)).toBeVisible()
      await expect(item.getByText('Revoked', { exact: true })).toBeVisible()
      await expect(item.getByRole('button', { name: `Restore the token ${name}` })).toBeVisible()
      expect((await outside.get(`/api/game/${game.id}/events`)).status()).toBe(401)
    } finally {
      await outside.dispose()
    }
  })

  test('the Files screen lists an uploaded avatar; the Settings screen loads the settings', async () => {
    const { page } = admin
    await page.goto('/admin/files')
    await expect(page.getByRole('heading', { level: 1, name: 'Files' })).toBeVisible()
    const files = page.getByRole('table', { name: 'Stored files' })
    await expect(files.locator(`code[title="${avatarHash}"]`)).toBeVisible()
    await screenshot(page, 'admin-files')

    await page.goto('/admin/settings')
    await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible()
    const form = page.getByRole('form', { name: 'Platform settings' })
    await expect(form.getByRole('textbox', { name: 'Platform name' })).not.toHaveValue('')
    await screenshot(page, 'admin-settings')
  })
})
