import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import type { Browser, BrowserContext, Page } from '@playwright/test'
import type * as Axe from 'axe-core'
import { AdminApi, ApiClient, expect, harnessEnv, test, uniqueName, VIEWPORTS } from '../harness/fixtures.ts'
import { ARTIFACTS_DIR } from '../harness/paths.ts'

// axe-core on every screen, signed out, as a player and as an admin, at 1440 and 390 px, in the
// dark and the light scheme: no critical or serious violation. Each screen is loaded once per
// width; the scheme is switched in place, with the browser's preference emulated opposite to it
// (so styles that follow the browser instead of the app's scheme show up). Everything axe finds
// (moderate and minor too) is written to `e2e/.artifacts/a11y.json`.

type Scheme = 'dark' | 'light'
type Role = 'visitor' | 'player' | 'admin'

interface Screen {
  name: string
  path: string
  /** Waits until the screen shows its data (after its `h1`). */
  ready?: (page: Page) => Promise<unknown>
  /** A view opened on top of it (a dialog), audited after the screen itself, in the same load. */
  opens?: { name: string; open: (page: Page) => Promise<unknown> }
}

interface Finding {
  role: Role
  screen: string
  width: number
  scheme: Scheme
  rule: string
  impact: string
  help: string
  targets: string[]
  summary: string
}

const SCHEME_KEY = 'mantine-color-scheme-value'
const PASSWORD = 'Passw0rd!'
/** Rules whose result depends on colours: the only ones run again in the second scheme. */
const COLOUR_RULES = ['color-contrast', 'link-in-text-block']
const FAILING = new Set(['critical', 'serious'])
/** axe-core itself, put in every page of the audited contexts before the app's scripts. */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

/** Mantine's scheme, switched in place: it listens to the storage event of its key. */
async function switchScheme(page: Page, scheme: Scheme) {
  await page.emulateMedia({ colorScheme: scheme === 'dark' ? 'light' : 'dark' })
  await page.evaluate(
    ([key, value]) => {
      localStorage.setItem(key, value)
      window.dispatchEvent(new StorageEvent('storage', { key, newValue: value, storageArea: localStorage }))
    },
    [SCHEME_KEY, scheme] as const,
  )
  await page.locator(`html[data-mantine-color-scheme="${scheme}"]`).waitFor({ state: 'attached' })
  // Let transitions of colours end before contrast is measured.
  // real wait: the browser's colour transitions run in real time before contrast is measured
  await page.waitForTimeout(50)
}

/** Until the page has its heading and nothing is loading any more. */
/** No transitions or animations while auditing. */
const STILL = '*, *::before, *::after { transition: none !important; animation: none !important; }'

async function settle(page: Page) {
  await page.waitForFunction(
    () =>
      document.querySelector('h1')?.checkVisibility() === true &&
      !document.querySelector(
        '[aria-label^="Loading"], [aria-busy="true"], .mantine-Skeleton-root[data-visible]',
      ),
    undefined,
    { timeout: 15_000 },
  )
}

async function audit(page: Page, role: Role, screen: string, scheme: Scheme, rules?: string[]) {
  const violations = await page.evaluate(async (only) => {
    const { axe } = window as unknown as { axe: typeof Axe }
    const { violations } = await axe.run(document, {
      // Only the violations come back: passes and incomplete results are large to hand over.
      resultTypes: ['violations'],
      rules: { 'label-content-name-mismatch': { enabled: true } },
      ...(only ? { runOnly: { type: 'rule', values: only } } : {}),
    })
    return violations.map((v) => ({
      id: v.id,
      impact: v.impact ?? 'unknown',
      help: v.help,
      targets: v.nodes.map((n) => n.target.join(' ')),
      summary: v.nodes[0]?.failureSummary?.split('\n').slice(0, 2).join(' ') ?? '',
    }))
  }, rules)
  const width = page.viewportSize()?.width ?? 0
  return violations.map(({ id, ...rest }): Finding => ({ role, screen, width, scheme, rule: id, ...rest }))
}

/** Every screen at both widths in both schemes, in one page of the role's own browser context. */
async function auditScreens(context: BrowserContext, role: Role, screens: Screen[]): Promise<Finding[]> {
  const page = await context.newPage()
  const findings: Finding[] = []
  let scheme: Scheme = 'dark'
  for (const size of Object.values(VIEWPORTS)) {
    await page.setViewportSize(size)
    for (const screen of screens) {
      await page.emulateMedia({ colorScheme: scheme === 'dark' ? 'light' : 'dark' })
      await page.goto(screen.path, { waitUntil: 'domcontentloaded' })
      await settle(page)
      // Colours are measured as they end, not halfway through a transition after a scheme switch
      // (a busy machine caught a segmented control's label mid-fade).
      await page.addStyleTag({ content: STILL })
      await screen.ready?.(page)
      const views = [{ name: screen.name, open: async () => {} }, ...(screen.opens ? [screen.opens] : [])]
      for (const view of views) {
        await view.open(page)
        // The full set in the scheme the page shows, the colour rules in the other.
        findings.push(...(await audit(page, role, view.name, scheme)))
        scheme = scheme === 'dark' ? 'light' : 'dark'
        await switchScheme(page, scheme)
        findings.push(...(await audit(page, role, view.name, scheme, COLOUR_RULES)))
      }
    }
  }
  await page.close()
  return findings
}

const all: Finding[] = []

/** Fails with one line per rule and screen (critical and serious only). */
function expectClean(findings: Finding[]) {
  all.push(...findings)
  mkdirSync(ARTIFACTS_DIR, { recursive: true })
  writeFileSync(path.join(ARTIFACTS_DIR, 'a11y.json'), JSON.stringify(all, null, 2))
  const failing = findings.filter((f) => FAILING.has(f.impact))
  const report = failing
    .map(
      (f) =>
        `${f.impact} ${f.rule} on ${f.role} ${f.screen} at ${f.width}px, ${f.scheme}: ${f.help}\n` +
        `    ${f.targets.slice(0, 3).join(' | ')}${f.targets.length > 3 ? ` (+${f.targets.length - 3})` : ''}\n` +
        `    ${f.summary}`,
    )
    .join('\n')
  expect(failing.length, `axe found ${failing.length} critical or serious violations:\n${report}`).toBe(0)
}

interface Setup {
  gameId: number
  gameTitle: string
  postId: string
  challenges: { id: number; title: string }[]
  player: string
}

let setup: Setup
let admin: AdminApi

test.beforeAll(async () => {
  const { baseUrl, adminPassword } = harnessEnv()
  admin = await (await AdminApi.create(baseUrl)).signIn('Admin', adminPassword)
  const now = Date.now()
  const postId = await admin.post<string>('/api/edit/posts', {
    title: `Accessible news ${uniqueName('p')}`,
    summary: 'A post with a [link](https://example.org) in its summary.',
    content: '## Details\n\nRead the [rules](/about) first.\n\n| Day | Event |\n|---|---|\n| Sat | Finals |',
    tags: ['news'],
    isPinned: true,
  })
  const gameTitle = `A11y ${uniqueName('g')}`
  const game = await admin.post<Record<string, unknown> & { id: number }>('/api/edit/games', {
    title: gameTitle,
    start: now - 10 * 60_000,
    end: now + 60 * 60_000,
  })
  await admin.put(`/api/edit/games/${game.id}`, {
    ...game,
    acceptWithoutReview: true,
    summary: 'A game to check accessibility on.',
    content: '## Rules\n\nFlags look like `flag{...}`.',
    writeupRequired: true,
    writeupDeadline: now + 2 * 60 * 60_000,
  })
  await admin.post(`/api/edit/games/${game.id}/notices`, { content: 'The game is **on**.' })
  const challenges: Setup['challenges'] = []
  for (const [title, category] of [
    ['Solved one', 'Web'],
    ['Open one', 'Crypto'],
    ['Another one', 'Crypto'],
  ] as const) {
    const created = await admin.post<{ id: number }>(`/api/edit/games/${game.id}/challenges`, {
      title,
      category,
      type: 'StaticAttachment',
    })
    await admin.post(`/api/edit/games/${game.id}/challenges/${created.id}/flags`, [
      { flag: `flag{${title.replace(' ', '_')}}` },
    ])
    await admin.put(`/api/edit/games/${game.id}/challenges/${created.id}`, {
      isEnabled: true,
      content: `Find the flag of **${title}**.`,
      hints: ['Read the `source`.'],
    })
    challenges.push({ id: created.id, title })
  }

  // A player with a team in the game, who solved the first challenge.
  const player = uniqueName('a11y')
  const api = await ApiClient.create(baseUrl)
  await api.post('/api/account/register', {
    userName: player,
    password: PASSWORD,
    email: `${player}@e2e.test`,
  })
  const team = await api.post<{ id: number }>('/api/team', { name: `Team ${player}`, bio: 'Checks contrast' })
  await api.post(`/api/game/${game.id}`, { teamId: team.id })
  await api.post(`/api/game/${game.id}/challenges/${challenges[0]!.id}`, { flag: 'flag{Solved_one}' })
  await api.dispose()
  setup = { gameId: game.id, gameTitle, postId, challenges, player }
})

test.afterAll(async () => {
  await admin?.dispose()
})

async function contextAs(browser: Browser, role: Role): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL: harnessEnv().baseUrl })
  await context.addInitScript({ content: AXE_SOURCE })
  if (role === 'admin') await new ApiClient(context.request).signIn('Admin', harnessEnv().adminPassword)
  if (role === 'player') await new ApiClient(context.request).signIn(setup.player, PASSWORD)
  return context
}

const signedOutScreens = (): Screen[] => [
  { name: 'home', path: '/' },
  { name: 'posts', path: '/posts' },
  { name: 'games', path: '/games' },
  { name: 'game', path: `/games/${setup.gameId}` },
  { name: 'login', path: '/account/login' },
  { name: 'register', path: '/account/register' },
  { name: 'recovery', path: '/account/recovery' },
  {
    name: 'about',
    path: '/about',
    opens: { name: 'language-menu', open: openMenu('Language', 'English') },
  },
  { name: 'not-found', path: '/no/such/page' },
]

/** Opens a frame menu by its button; audited open, as a keyboard or screen reader user meets it. */
const openMenu = (button: string | RegExp, item: string) => async (page: Page) => {
  // On a phone the frame's buttons are in the navigation drawer.
  const burger = page.getByRole('button', { name: 'Open menu' })
  if (await burger.isVisible()) await burger.click()
  await page.getByRole('button', { name: button }).click()
  await expect(page.getByRole('menuitem', { name: item }).first()).toBeVisible()
}

const openChallenge = (title: string) => async (page: Page) => {
  await page.getByRole('button', { name: new RegExp(title) }).click()
  const dialog = page.getByRole('dialog', { name: title })
  await dialog.getByRole('textbox', { name: 'Flag' }).fill('flag{wrong}')
  await dialog.getByRole('textbox', { name: 'Flag' }).press('Enter')
  // A toast too: its close button is checked with the dialog.
  await expect(page.locator('.mantine-Notification-root').first()).toBeVisible()
}

test('signed out: no critical or serious axe violation', async ({ browser }) => {
  test.setTimeout(180_000)
  const context = await contextAs(browser, 'visitor')
  expectClean(await auditScreens(context, 'visitor', signedOutScreens()))
  await context.close()
})

test('as a player: no critical or serious axe violation', async ({ browser }) => {
  test.setTimeout(180_000)
  const context = await contextAs(browser, 'player')
  const { gameId, postId, gameTitle, challenges } = setup
  const screens: Screen[] = [
    {
      name: 'home',
      path: '/',
      ready: (page) => expect(page.getByText(gameTitle).first()).toBeVisible(),
    },
    {
      name: 'post',
      path: `/posts/${postId}`,
      opens: { name: 'account-menu', open: openMenu(/Account menu/, 'Log out') },
    },
    {
      name: 'game',
      path: `/games/${gameId}`,
      ready: (page) => expect(page.getByRole('link', { name: 'Challenges' }).first()).toBeVisible(),
    },
    {
      name: 'challenges',
      path: `/games/${gameId}/challenges`,
      ready: (page) => expect(page.getByRole('button', { name: /Solved one/ })).toContainText('Solved'),
      opens: { name: 'challenge-dialog', open: openChallenge(challenges[1]!.title) },
    },
    {
      name: 'scoreboard',
      path: `/games/${gameId}/scoreboard`,
      ready: (page) => expect(page.getByRole('heading', { name: 'Ranking' })).toBeVisible(),
    },
    { name: 'teams', path: '/teams' },
    { name: 'profile', path: '/account/profile' },
  ]
  expectClean(await auditScreens(context, 'player', screens))
  await context.close()
})

test('as an admin: no critical or serious axe violation', async ({ browser }) => {
  test.setTimeout(240_000)
  const context = await contextAs(browser, 'admin')
  const { gameId, challenges } = setup
  const game = `/admin/games/${gameId}`
  const challenge = `${game}/challenges/${challenges[0]!.id}`
  const screens: Screen[] = [
    { name: 'admin-games', path: '/admin/games' },
    {
      name: 'admin-game-info',
      path: `${game}/info`,
      ready: (page) => expect(page.getByRole('textbox', { name: 'Summary' })).not.toHaveValue(''),
    },
    { name: 'admin-notices', path: `${game}/notices` },
    { name: 'admin-challenges', path: `${game}/challenges` },
    { name: 'admin-review', path: `${game}/review` },
    { name: 'admin-writeups', path: `${game}/writeups` },
    {
      name: 'admin-challenge',
      path: challenge,
      ready: (page) => expect(page.getByRole('textbox', { name: 'Title' })).not.toHaveValue(''),
    },
    { name: 'admin-flags', path: `${challenge}/flags` },
    { name: 'admin-users', path: '/admin/users' },
    { name: 'admin-teams', path: '/admin/teams' },
    { name: 'admin-instances', path: '/admin/instances' },
    { name: 'admin-logs', path: '/admin/logs' },
    { name: 'admin-files', path: '/admin/files' },
    { name: 'admin-tokens', path: '/admin/tokens' },
    { name: 'admin-settings', path: '/admin/settings' },
  ]
  expectClean(await auditScreens(context, 'admin', screens))
  await context.close()
})

/**
 * Describes the focused control and whether it shows a ring: an outline on it or, for inputs
 * drawn by a neighbour (switches, chips), on the element after it.
 */
async function focused(page: Page) {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null
    if (!el || el === document.body) return { name: 'body', ring: false }
    const ringed = (node: Element | null) => {
      if (!node) return false
      const style = getComputedStyle(node)
      return style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) >= 2
    }
    const name =
      el.getAttribute('aria-label') ??
      (el.id ? document.querySelector(`label[for="${el.id}"]`)?.textContent : null) ??
      el.textContent?.trim().slice(0, 40) ??
      ''
    return {
      name: `${el.tagName.toLowerCase()} ${name}`,
      ring:
        ringed(el) || ringed(el.nextElementSibling) || ringed(el.parentElement?.nextElementSibling ?? null),
    }
  })
}

/** Tabs through the page from the top: every stop must show a ring; returns the stops' names. */
async function tabThrough(page: Page, stops: number): Promise<string[]> {
  const names: string[] = []
  const unringed: string[] = []
  for (let i = 0; i < stops; i++) {
    await page.keyboard.press('Tab')
    const { name, ring } = await focused(page)
    if (name === 'body') break
    names.push(name)
    if (!ring) unringed.push(name)
  }
  expect(unringed, `controls without a visible focus ring:\n${unringed.join('\n')}`).toEqual([])
  return names
}

test('keyboard: the skip link first, a focus ring on every control, the board a few Tab presses in', async ({
  browser,
}) => {
  test.setTimeout(90_000)
  const visitor = await contextAs(browser, 'visitor')
  const player = await contextAs(browser, 'player')
  const organiser = await contextAs(browser, 'admin')

  // The register page: nothing is focused on load, so the first Tab reaches the skip link.
  let page = await visitor.newPage()
  await page.goto('/account/register')
  await settle(page)
  for (const scheme of ['dark', 'light'] as const) {
    await switchScheme(page, scheme)
    await page.locator('body').focus()
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur())
    await page.keyboard.press('Tab')
    expect(await focused(page)).toEqual({ name: 'a Skip to content', ring: true })
    await page.keyboard.press('Enter')
    await expect(page.locator('#main')).toBeFocused()
    await tabThrough(page, 12)
  }

  // The challenge board: from the main region, the first challenge is a few stops away.
  page = await player.newPage()
  await page.goto(`/games/${setup.gameId}/challenges`)
  await settle(page)
  await page.keyboard.press('Tab')
  expect((await focused(page)).name).toBe('a Skip to content')
  await page.keyboard.press('Enter')
  const stops = await tabThrough(page, 20)
  const first = stops.findIndex((name) => name.includes(setup.challenges[0]!.title))
  expect(first, `Tab stops from the main region:\n${stops.join('\n')}`).toBeGreaterThanOrEqual(0)
  expect(first, `Tab stops from the main region:\n${stops.join('\n')}`).toBeLessThanOrEqual(8)

  // An admin form full of fields and switches.
  page = await organiser.newPage()
  await page.goto(`/admin/games/${setup.gameId}/info`)
  await settle(page)
  await tabThrough(page, 40)

  await Promise.all([visitor, player, organiser].map((c) => c.close()))
})
