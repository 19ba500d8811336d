import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Page } from '@playwright/test'
import {
  AdminApi,
  ApiClient,
  expect,
  harnessEnv,
  screenshot,
  test,
  uniqueName,
  VIEWPORTS,
} from '../harness/fixtures.ts'

// The interface in other languages: switching to zh-CN and ja-JP and walking login → challenges →
// scoreboard leaves no English on screen (compared with every en-US string), the choice survives a
// reload, de-DE warns that it is machine translated, and the pseudo-locales lay out without
// breaking (screenshots in e2e/.artifacts/screenshots, looked at by a person).

const I18N = fileURLToPath(new URL('../../web/src/i18n/', import.meta.url))
const PASSWORD = 'Passw0rd!'

type Tree = { [key: string]: string | string[] | Tree }
const allow = JSON.parse(readFileSync(path.join(I18N, 'allow-english.json'), 'utf8')) as {
  everywhere: string[]
  byLanguage: Record<string, string[]>
}

function strings(node: Tree): string[] {
  return Object.values(node).flatMap((v) => (typeof v === 'string' ? [v] : Array.isArray(v) ? v : strings(v)))
}

const hasLanguage = (code: string) => existsSync(path.join(I18N, 'locales', code))

/** Each en-US string as a pattern over a whole text (placeholders match anything). */
function englishPatterns(code: string): { text: string; pattern: RegExp }[] {
  const dir = path.join(I18N, 'locales', 'en-US')
  const kept = new Set([...allow.everywhere, ...(allow.byLanguage[code] ?? [])])
  const all = readdirSync(dir).flatMap((f) =>
    strings(JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as Tree),
  )
  return [...new Set(all)]
    .filter((text) => {
      const bare = text.replace(/\{\{\s*\w+\s*\}\}/g, '').trim()
      return /\p{L}/u.test(bare) && !kept.has(bare)
    })
    .map((text) => {
      const parts = text.split(/\{\{\s*\w+\s*\}\}/).map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      return { text, pattern: new RegExp(`^${parts.join('.+?')}$`, 's') }
    })
}

/**
 * The text a user sees or hears: visible text nodes and the accessible names, placeholders and
 * titles of visible elements, leaving out what is marked as another language (the picker's names).
 */
async function visibleTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const lang = document.documentElement.lang
    const out: string[] = []
    const shown = (el: Element | null) =>
      !!el &&
      el.checkVisibility({ visibilityProperty: true }) &&
      (el.closest('[lang]')?.getAttribute('lang') ?? lang) === lang
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT)
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent?.trim()
      if (text && shown(node.parentElement) && !node.parentElement?.closest('code, pre, kbd')) out.push(text)
    }
    for (const el of document.querySelectorAll('[aria-label], [placeholder], [title]'))
      if (shown(el))
        for (const attr of ['aria-label', 'placeholder', 'title']) {
          const value = el.getAttribute(attr)?.trim()
          if (value) out.push(value)
        }
    return out
  })
}

async function expectNoEnglish(page: Page, code: string, screen: string) {
  const patterns = englishPatterns(code)
  const texts = await visibleTexts(page)
  const english = texts.filter((t) => patterns.some((p) => p.pattern.test(t)))
  expect(english, `English left on ${screen} in ${code}`).toEqual([])
}

interface Setup {
  gameId: number
  player: string
}
let setup: Setup

test.beforeAll(async () => {
  const { baseUrl, adminPassword } = harnessEnv()
  const admin = await (await AdminApi.create(baseUrl)).signIn('Admin', adminPassword)
  const now = Date.now()
  // Names without English words, so only the interface's own strings can count as English.
  const game = await admin.post<Record<string, unknown> & { id: number }>('/api/edit/games', {
    title: `竞赛 ${uniqueName('g')}`,
    start: now - 10 * 60_000,
    end: now + 60 * 60_000,
  })
  await admin.put(`/api/edit/games/${game.id}`, { ...game, acceptWithoutReview: true, summary: '—' })
  const challenge = await admin.post<{ id: number }>(`/api/edit/games/${game.id}/challenges`, {
    title: `题目 ${uniqueName('c')}`,
    category: 'Misc',
    type: 'StaticAttachment',
  })
  await admin.post(`/api/edit/games/${game.id}/challenges/${challenge.id}/flags`, [{ flag: 'flag{i18n}' }])
  await admin.put(`/api/edit/games/${game.id}/challenges/${challenge.id}`, { isEnabled: true, content: '—' })
  await admin.dispose()

  const player = uniqueName('i18n')
  const api = await ApiClient.create(baseUrl)
  await api.post('/api/account/register', {
    userName: player,
    password: PASSWORD,
    email: `${player}@e2e.test`,
  })
  const team = await api.post<{ id: number }>('/api/team', { name: `队 ${player}`, bio: '—' })
  await api.post(`/api/game/${game.id}`, { teamId: team.id })
  await api.post(`/api/game/${game.id}/challenges/${challenge.id}`, { flag: 'flag{i18n}' })
  await api.dispose()
  setup = { gameId: game.id, player }
})

/** Picks a language in the account pages' select, as a visitor would. */
async function chooseOnLoginPage(page: Page, code: string) {
  await page.goto('/account/login')
  await page
    .locator('select')
    .filter({ has: page.locator(`option[value="${code}"]`) })
    .selectOption(code)
}

async function logIn(page: Page) {
  await page.locator('input[autocomplete="username"]').fill(setup.player)
  await page.locator('input[autocomplete="current-password"]').fill(PASSWORD)
  await page.locator('input[autocomplete="current-password"]').press('Enter')
  await expect(page).not.toHaveURL(/\/account\/login/)
}

for (const code of ['zh-CN', 'ja-JP'] as const) {
  test(`${code}: the choice holds through login, challenges, scoreboard and a reload`, async ({ page }) => {
    await chooseOnLoginPage(page, code)
    await expect(page.locator('html')).toHaveAttribute('lang', code)
    await logIn(page)
    await page.goto(`/games/${setup.gameId}/challenges`)
    await expect(page.locator('html')).toHaveAttribute('lang', code)
    await page.goto(`/games/${setup.gameId}/scoreboard`)
    await page.reload()
    await expect(page.locator('html')).toHaveAttribute('lang', code)
    // The API answers in it too: the client sends the language with every request.
    const sent = page.waitForRequest((r) => r.url().includes('/api/'))
    await page.reload()
    expect((await sent).headers()['accept-language']).toBe(code)
  })

  test(`${code}: no English left on login, challenges and scoreboard`, async ({ page }) => {
    test.skip(
      !hasLanguage(code),
      `web/src/i18n/locales/${code} is not in this checkout (the translators' work)`,
    )
    await chooseOnLoginPage(page, code)
    await expect(page.locator('html')).toHaveAttribute('lang', code)
    await expect(page.locator('input[autocomplete="username"]')).toBeVisible()
    await expectNoEnglish(page, code, 'login')
    await logIn(page)
    await page.goto(`/games/${setup.gameId}/challenges`)
    await expect(page.getByRole('button', { name: /题目/ })).toBeVisible()
    await expectNoEnglish(page, code, 'challenges')
    await page.goto(`/games/${setup.gameId}/scoreboard`)
    await expect(page.getByText(`队 ${setup.player}`).first()).toBeVisible()
    await expectNoEnglish(page, code, 'scoreboard')
  })
}

test('de-DE warns it is machine translated; the picker marks it', async ({ page }) => {
  await page.goto('/account/login')
  const select = page.getByRole('combobox', { name: 'Language' })
  await expect(select.locator('option[value="de-DE"]')).toHaveText('Deutsch (machine translated)')
  await expect(select.locator('option[value="ja-JP"]')).toHaveText('日本語')
  await select.selectOption('de-DE')
  const dialog = page.getByRole('dialog', { name: 'Machine translation' })
  await expect(dialog).toContainText('Deutsch is machine translated')
  await dialog.getByRole('button', { name: 'Use Deutsch' }).click()
  await expect(page.locator('html')).toHaveAttribute('lang', 'de-DE')
  await page.reload()
  await expect(page.locator('html')).toHaveAttribute('lang', 'de-DE')
})

/** Button labels cut off by their own box (Mantine's labels do not wrap): their texts. */
function clippedButtons(page: Page) {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('.mantine-Button-label')]
      .filter((label) => label.checkVisibility() && label.scrollWidth > label.clientWidth + 1)
      .map((label) => label.textContent ?? ''),
  )
}

for (const code of ['ru-RU', 'fr-FR', 'es-ES'] as const) {
  test(`${code}: the home page's buttons are whole at phone width`, async ({ browser }) => {
    const context = await browser.newContext({ baseURL: harnessEnv().baseUrl, viewport: VIEWPORTS.phone })
    await new ApiClient(context.request).signIn(setup.player, PASSWORD)
    const page = await context.newPage()
    await page.goto(`/?lng=${code}`)
    await expect(page.locator('html')).toHaveAttribute('lang', code)
    // The recent games' head: its heading and the "All games" link beside it.
    await expect(page.locator('#recent-games')).toBeVisible()
    await page.waitForLoadState('networkidle')
    expect(await clippedButtons(page)).toEqual([])
    await context.close()
  })
}

test('pseudo-locales: long text at phone width, right to left at desktop width', async ({ browser }) => {
  test.setTimeout(120_000)
  // The player sees the game's screens (an admin without a team is sent away from the challenges).
  const player = await browser.newContext({ baseURL: harnessEnv().baseUrl })
  await new ApiClient(player.request).signIn(setup.player, PASSWORD)
  const admin = await browser.newContext({ baseURL: harnessEnv().baseUrl })
  await new ApiClient(admin.request).signIn('Admin', harnessEnv().adminPassword)
  const pages = { player: await player.newPage(), admin: await admin.newPage() }
  const screens = [
    ['home', '/', 'player'],
    ['login', '/account/login', 'admin'],
    ['games', '/games', 'player'],
    ['challenges', `/games/${setup.gameId}/challenges`, 'player'],
    ['scoreboard', `/games/${setup.gameId}/scoreboard`, 'player'],
    ['admin-games', '/admin/games', 'admin'],
  ] as const
  for (const [code, size, dir] of [
    ['en-XA', VIEWPORTS.phone, 'ltr'],
    ['ar-XB', VIEWPORTS.desktop, 'rtl'],
  ] as const) {
    for (const [name, url, role] of screens) {
      const page = pages[role]
      await page.setViewportSize(size)
      await page.goto(`${url}?lng=${code}`)
      await expect(page.locator('html')).toHaveAttribute('dir', dir)
      await expect(page.locator('html')).toHaveAttribute('lang', code)
      await expect(page.getByRole('heading').first()).toBeVisible()
      if (code === 'en-XA') await expect(page.locator('body')).toContainText('⟦')
      // A date range's arrow points from start to end in the reading direction.
      if (name === 'games') await expect(page.locator('main')).toContainText(code === 'ar-XB' ? ' ← ' : ' → ')
      await page.waitForLoadState('networkidle')
      // Nothing wider than the screen: a long string must wrap, not push the page sideways.
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
      expect(overflow, `${name} in ${code} scrolls sideways`).toBeLessThanOrEqual(1)
      await screenshot(page, `i18n-${code}-${name}`)
    }
  }
  // A real language choice leaves the pseudo-locale.
  await pages.player.goto('/?lng=ja-JP')
  await expect(pages.player.locator('html')).toHaveAttribute('dir', 'ltr')
  await player.close()
  await admin.close()
})
