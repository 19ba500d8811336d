import type { Browser } from '@playwright/test'
import { type AdminApi, ApiClient, expect, harnessEnv, test } from '../harness/fixtures.ts'
import { toast } from './account-helpers.ts'

// Admin saves that used to be lost: a switch on the games list writing back an old copy of the
// game, and edits typed while a save was under way replaced by the saved form.

interface EditGame extends Record<string, unknown> {
  id: number
  title: string
  hidden: boolean
  acceptWithoutReview: boolean
  summary: string
  content: string
}

async function adminPage(browser: Browser) {
  const context = await browser.newContext({ baseURL: harnessEnv().baseUrl })
  await new ApiClient(context.request).signIn('Admin', harnessEnv().adminPassword)
  return { context, page: await context.newPage() }
}

async function newGame(adminApi: AdminApi, title: string): Promise<EditGame> {
  const now = Date.now()
  return adminApi.post<EditGame>('/api/edit/games', {
    title,
    start: now - 60_000,
    end: now + 3_600_000,
    acceptWithoutReview: false,
  })
}

test('hiding a game from the list keeps what was saved on its info tab meanwhile', async ({
  browser,
  adminApi,
  uniqueName,
}) => {
  const game = await newGame(adminApi, `Saves ${uniqueName('g')}`)
  const { context, page } = await adminPage(browser)
  await page.goto('/admin/games')
  const hide = page.getByRole('switch', { name: `Hide ${game.title} from players` })
  await expect(hide).not.toBeChecked()

  // Meanwhile (another tab, the info form) teams are let in without review; the list still
  // holds its older copy of the game.
  await adminApi.put(`/api/edit/games/${game.id}`, { ...game, acceptWithoutReview: true })
  await hide.click({ force: true })
  await expect(toast(page, `${game.title} is now hidden`)).toBeVisible()

  const stored = await adminApi.get<EditGame>(`/api/edit/games/${game.id}`)
  expect(stored).toMatchObject({ hidden: true, acceptWithoutReview: true })
  await context.close()
})

test('edits typed while the game info is being saved stay, as unsaved changes', async ({
  browser,
  adminApi,
  uniqueName,
}) => {
  const game = await newGame(adminApi, `Saves ${uniqueName('g')}`)
  const { context, page } = await adminPage(browser)
  await page.goto(`/admin/games/${game.id}/info`)
  const summary = page.getByRole('textbox', { name: 'Summary' })
  const description = page.getByRole('textbox', { name: 'Description' })
  await expect(summary).toBeVisible()

  // The save is held back a moment, as on a slow connection, so typing can go on meanwhile.
  let release: () => void = () => {}
  const held = new Promise<void>((resolve) => {
    release = resolve
  })
  await page.route(
    `**/api/edit/games/${game.id}`,
    async (route) => {
      if (route.request().method() !== 'PUT') return route.fallback()
      await held
      await route.continue()
    },
    { times: 1 },
  )
  const puts: string[] = []
  page.on('request', (request) => {
    if (request.method() === 'PUT' && request.url().endsWith(`/api/edit/games/${game.id}`))
      puts.push(request.postData() ?? '')
  })
  await summary.fill('Typed before saving')
  await page.getByRole('button', { name: 'Save', exact: true }).click()
  await description.fill('Typed while saving')
  release()
  await expect(toast(page, 'Game saved')).toBeVisible()
  expect(puts).toHaveLength(1)

  await expect(description).toHaveValue('Typed while saving')
  await expect(summary).toHaveValue('Typed before saving')
  await expect(page.getByText('Unsaved changes')).toBeVisible()
  let stored = await adminApi.get<EditGame>(`/api/edit/games/${game.id}`)
  expect(stored).toMatchObject({ summary: 'Typed before saving', content: '' })

  // (The toast sits over the Save button for a while: Enter in a field saves too.)
  await page.getByRole('textbox', { name: 'Title' }).press('Enter')
  await expect(page.getByText('Unsaved changes')).toBeHidden()
  stored = await adminApi.get<EditGame>(`/api/edit/games/${game.id}`)
  expect(stored).toMatchObject({ summary: 'Typed before saving', content: 'Typed while saving' })
  await context.close()
})

test('leaving a challenge with unsaved changes asks first', async ({ browser, adminApi, uniqueName }) => {
  const game = await newGame(adminApi, `Saves ${uniqueName('g')}`)
  const challenge = await adminApi.post<{ id: number }>(`/api/edit/games/${game.id}/challenges`, {
    title: 'Unsaved',
    category: 'Misc',
    type: 'StaticAttachment',
  })
  const { context, page } = await adminPage(browser)
  const editor = `/admin/games/${game.id}/challenges/${challenge.id}`
  await page.goto(editor)
  const description = page.getByRole('textbox', { name: 'Description' })
  await description.fill('Half written')

  await page.getByRole('link', { name: 'Attachment and flags' }).click()
  const ask = page.getByRole('dialog', { name: 'Leave without saving?' })
  await expect(ask).toContainText('Your changes to this challenge have not been saved')
  await ask.getByRole('button', { name: 'Cancel' }).click()
  await expect(page).toHaveURL(new RegExp(`${editor}$`))
  await expect(description).toHaveValue('Half written')

  // Saved, it leaves without asking.
  await page.getByRole('textbox', { name: 'Title' }).press('Enter')
  await expect(toast(page, 'Challenge saved')).toBeVisible()
  await page.getByRole('link', { name: 'Attachment and flags' }).click()
  await expect(page).toHaveURL(new RegExp(`${editor}/flags$`))
  await expect(ask).toBeHidden()
  await context.close()
})
