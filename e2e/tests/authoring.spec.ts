import type { Browser, BrowserContext, Locator, Page } from '@playwright/test'
import { ApiClient, expect, harnessEnv, shootAll, test } from '../harness/fixtures.ts'

// Organisers build a game through the admin screens; players make a team on /teams.

const PASSWORD = 'Passw0rd!'

interface Session {
  context: BrowserContext
  page: Page
  /** The same cookie jar as the page: API checks see what the user's browser sees. */
  api: ApiClient
}

async function adminSession(browser: Browser): Promise<Session> {
  const context = await browser.newContext({ baseURL: harnessEnv().baseUrl })
  const api = await new ApiClient(context.request).signIn('Admin', harnessEnv().adminPassword)
  return { context, page: await context.newPage(), api }
}

/** A new player, registered (and so signed in) through the API in a fresh browser context. */
async function playerSession(browser: Browser, userName: string): Promise<Session> {
  const context = await browser.newContext({ baseURL: harnessEnv().baseUrl })
  const api = new ApiClient(context.request)
  const { data } = await api.post<{ data: string }>('/api/account/register', {
    userName,
    password: PASSWORD,
    email: `${userName}@example.com`,
  })
  expect(data).toBe('LoggedIn')
  return { context, page: await context.newPage(), api }
}

/** `datetime-local` text of an instant (the browsers run in UTC, see playwright.config.ts). */
const localInput = (ms: number) => new Date(ms).toISOString().slice(0, 16)

const dialog = (page: Page, name: string | RegExp) => page.getByRole('dialog', { name })

/** Answers the app's confirmation dialog with its confirm button. */
async function confirmWith(page: Page, title: string, button: string) {
  const box = dialog(page, title)
  await box.getByRole('button', { name: button }).click()
  await expect(box).toBeHidden()
}

async function pickOption(page: Page, select: Locator, option: string) {
  await select.click()
  await page.getByRole('option', { name: option, exact: true }).click()
}

interface EditChallenge {
  id: number
  title: string
  type: string
  isEnabled: boolean
  hints: string[]
  originalScore: number
  flagTemplate: string | null
  attachment: { type: string; url: string | null } | null
  flags: { flag: string; attachment: { type: string; url: string | null } | null }[]
}

async function newChallenge(page: Page, title: string, category: string, type: string): Promise<number> {
  await page.getByRole('button', { name: 'New challenge' }).click()
  const box = dialog(page, 'New challenge')
  await box.getByRole('textbox', { name: 'Title' }).fill(title)
  await pickOption(page, box.getByRole('combobox', { name: 'Category' }), category)
  await box.getByRole('radio', { name: type }).check()
  await box.getByRole('button', { name: 'Create and edit' }).click()
  await expect(page).toHaveURL(/\/challenges\/\d+$/)
  await expect(page.getByRole('textbox', { name: 'Title' })).toHaveValue(title)
  return Number(page.url().split('/').pop())
}

test('an organiser builds a game with three kinds of challenges, flags, an attachment and a notice', async ({
  browser,
  uniqueName,
}) => {
  test.setTimeout(240_000)
  const admin = await adminSession(browser)
  const { page, api } = admin
  const title = `Authoring ${uniqueName('g')}`
  const tab = (name: string) =>
    page.getByRole('navigation', { name: 'Game settings' }).getByRole('link', { name })
  const now = Date.now()

  // 1. A new game from the list: title and dates, then its info tab.
  await page.goto('/admin/games')
  await expect(
    page.getByRole('navigation', { name: 'Administration' }).getByRole('link', { name: 'Games' }),
  ).toHaveAttribute('aria-current', 'page')
  await page.getByRole('button', { name: 'New game' }).click()
  const create = dialog(page, 'New game')
  await create.getByRole('textbox', { name: 'Title' }).fill(title)
  await create.getByLabel('Start').fill(localInput(now - 3_600_000))
  // An end before the start is refused in the browser.
  await create.getByLabel('End').fill(localInput(now - 7_200_000))
  await expect(create.getByText('The end must come after the start')).toBeVisible()
  await create.getByLabel('End').fill(localInput(now + 2 * 86_400_000))
  // New games take teams without review unless told; this one reviews them (step 9).
  const noReview = create.getByRole('switch', { name: 'Accept teams without review' })
  await expect(noReview).toBeChecked()
  await noReview.click({ force: true })
  await expect(create.getByText('Teams that join now wait for you on the Review tab')).toBeVisible()
  await create.getByRole('button', { name: 'Create game' }).click()
  // A new game opens on its challenges, the next step; its info is one tab away.
  await expect(page).toHaveURL(/\/admin\/games\/\d+\/challenges$/)
  const gameId = Number(page.url().split('/').at(-2))
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible()
  await tab('Info').click()

  // 2. Its info: summary, Markdown content with preview, a division, a bigger first blood.
  await page.getByRole('textbox', { name: 'Summary' }).fill('Spring practice for the club')
  await page.getByRole('textbox', { name: 'Description' }).fill('# Rules\n\nBe **nice**.')
  await page.getByText('Preview', { exact: true }).first().click()
  await expect(
    page.getByRole('region', { name: 'Preview of Description' }).getByRole('heading', { name: 'Rules' }),
  ).toBeVisible()
  await page.getByText('Write', { exact: true }).first().click()
  const divisions = page.getByRole('combobox', { name: 'Divisions' })
  await divisions.fill('Open')
  await divisions.press('Enter')
  await page.getByRole('textbox', { name: 'First blood' }).fill('10')
  await expect(page.getByText('On a 500-point challenge: 550, 515 and 505 points.')).toBeVisible()
  await page.getByRole('switch', { name: /^Writeups required/ }).check()
  await page.getByLabel('Writeup deadline').fill(localInput(now + 3 * 86_400_000))
  await page.getByRole('button', { name: 'Save', exact: true }).click()
  await expect(page.getByText('Game saved')).toBeVisible()
  const game = await api.get<{ summary: string; content: string; divisions: string[]; bloodBonus: number }>(
    `/api/edit/games/${gameId}`,
  )
  expect(game).toMatchObject({
    writeupRequired: true,
    summary: 'Spring practice for the club',
    content: '# Rules\n\nBe **nice**.',
    divisions: ['Open'],
    bloodBonus: 100 * 2 ** 20 + 30 * 2 ** 10 + 10,
  })

  // 3. A notice.
  await tab('Notices').click()
  await expect(page.getByText('No notice yet')).toBeVisible()
  await page.getByRole('button', { name: 'New notice' }).click()
  const noticeBox = dialog(page, 'New notice')
  await noticeBox.getByRole('textbox', { name: 'Notice' }).fill('Welcome, the game is **on**!')
  await noticeBox.getByRole('button', { name: 'Post' }).click()
  await expect(page.getByRole('list', { name: 'Notices' }).getByText('the game is on!')).toBeVisible()
  const notices = await api.get<{ values: string[] }[]>(`/api/edit/games/${gameId}/notices`)
  expect(notices.map((n) => n.values[0])).toEqual(['Welcome, the game is **on**!'])

  // 4. A static attachment challenge: a file uploaded here and two flags pasted at once.
  await tab('Challenges').click()
  await expect(page.getByText('No challenge yet')).toBeVisible()
  const staticTitle = 'Baby RSA'
  const staticId = await newChallenge(page, staticTitle, 'Crypto', 'Static attachment')
  await page.getByRole('link', { name: 'Attachment and flags' }).click()
  await expect(page.getByRole('heading', { name: `Flags of ${staticTitle}` })).toBeVisible()
  await page.getByText('Upload', { exact: true }).click()
  await page.locator('input[type=file]').setInputFiles({
    name: 'hello.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('n = 3233, e = 3\n'),
  })
  await expect(page.getByRole('link', { name: 'hello.txt' })).toBeVisible()
  await page.getByRole('button', { name: 'Add flags' }).click()
  const flagsBox = dialog(page, 'Add flags')
  await flagsBox
    .getByRole('textbox', { name: 'Flags, one per line' })
    .fill('flag{small_e}\n\nflag{cube_root}\nflag{small_e}')
  await expect(flagsBox.getByText('Flags to add: 2')).toBeVisible()
  await flagsBox.getByRole('button', { name: 'Add', exact: true }).click()
  const flagList = page.getByRole('list', { name: 'Flags' })
  await expect(flagList.getByText('flag{small_e}')).toBeVisible()
  await expect(flagList.getByText('flag{cube_root}')).toBeVisible()
  let detail = await api.get<EditChallenge>(`/api/edit/games/${gameId}/challenges/${staticId}`)
  expect(detail.attachment?.type).toBe('Local')
  expect(detail.attachment?.url).toMatch(/^\/assets\/[0-9a-f]{64}\/hello\.txt$/)
  expect(detail.flags.map((f) => f.flag).sort()).toEqual(['flag{cube_root}', 'flag{small_e}'])
  const download = await api.context.get(detail.attachment!.url!)
  expect(await download.text()).toBe('n = 3233, e = 3\n')

  // 5. A dynamic attachment challenge: a flag with its own uploaded file.
  await tab('Challenges').click()
  const dynamicTitle = 'Per-team zip'
  const dynamicId = await newChallenge(page, dynamicTitle, 'Misc', 'Dynamic attachment')
  await page.getByRole('link', { name: 'Attachment and flags' }).click()
  // The editor has the same flag form: fill the flags page's, once it has replaced the editor.
  await expect(page.getByRole('heading', { name: `Flags of ${dynamicTitle}` })).toBeVisible()
  await page.getByRole('textbox', { name: 'Flag', exact: true }).fill('flag{team_file_1}')
  await page.locator('input[type=file]').setInputFiles({
    name: 'team1.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('your flag is inside\n'),
  })
  await expect(page.getByText('team1.txt is uploaded')).toBeVisible()
  await page.getByRole('button', { name: 'Add flag', exact: true }).click()
  await expect(page.getByRole('list', { name: 'Flags' }).getByText('flag{team_file_1}')).toBeVisible()
  await expect(
    // Every team's file downloads under the challenge's one download name.
    page.getByRole('list', { name: 'Flags' }).getByRole('link', { name: 'attachment' }),
  ).toBeVisible()
  detail = await api.get<EditChallenge>(`/api/edit/games/${gameId}/challenges/${dynamicId}`)
  expect(detail.flags).toHaveLength(1)
  expect(detail.flags[0]).toMatchObject({ flag: 'flag{team_file_1}', attachment: { type: 'Local' } })

  // 6. A dynamic container challenge: a flag template with live examples.
  await tab('Challenges').click()
  const containerTitle = 'Templated web'
  const containerId = await newChallenge(page, containerTitle, 'Web', 'Dynamic container')
  await expect(
    page
      .getByRole('region', { name: 'Test container' })
      .getByRole('button', { name: 'Start test container' }),
  ).toBeVisible()
  await page.getByRole('link', { name: 'Attachment and flags' }).click()
  await expect(page.getByRole('heading', { name: `Flags of ${containerTitle}` })).toBeVisible()
  const template = page.getByRole('textbox', { name: 'Template' })
  await template.fill('flag{short}')
  await expect(page.getByText('Too easy to guess')).toBeVisible()
  await template.fill('flag{hello_[TEAM_HASH]}')
  await expect(page.getByTestId('flag-example').first()).toHaveText('flag{hello_0a1b2c3d4e5f}')
  await page.getByRole('button', { name: 'Save template' }).click()
  await expect(page.getByText('Template saved')).toBeVisible()
  detail = await api.get<EditChallenge>(`/api/edit/games/${gameId}/challenges/${containerId}`)
  expect(detail.flagTemplate).toBe('flag{hello_[TEAM_HASH]}')

  // 7. Edit the first challenge: a lower score and a hint, seen in the preview.
  await page.goto(`/admin/games/${gameId}/challenges/${staticId}`)
  await page.getByRole('textbox', { name: 'Score', exact: true }).fill('500')
  await page.getByRole('button', { name: 'Add a hint' }).click()
  await page.getByRole('textbox', { name: 'Hint 1' }).fill('Try a small exponent')
  const preview = page.getByRole('region', { name: 'As players see it' })
  await expect(preview.getByText('500 pts')).toBeVisible()
  await expect(preview.getByText('Try a small exponent')).toBeVisible()
  await page.getByRole('button', { name: 'Save', exact: true }).click()
  await expect(page.getByText('Challenge saved')).toBeVisible()
  detail = await api.get<EditChallenge>(`/api/edit/games/${gameId}/challenges/${staticId}`)
  expect(detail).toMatchObject({ originalScore: 500, hints: ['Try a small exponent'] })

  // 8. Enable the three (the game is running, so each asks first).
  await tab('Challenges').click()
  for (const name of [staticTitle, dynamicTitle, containerTitle]) {
    const toggle = page.getByRole('switch', { name: `Enable ${name}` })
    await toggle.click({ force: true })
    await confirmWith(page, 'Enable during the game?', 'Enable')
    await expect(page.getByText(`${name} is enabled`)).toBeVisible()
    await expect(toggle).toBeChecked()
  }
  const list = await api.get<EditChallenge[]>(`/api/edit/games/${gameId}/challenges`)
  expect(list.map((c) => [c.title, c.type, c.isEnabled]).sort()).toEqual(
    [
      [staticTitle, 'StaticAttachment', true],
      [dynamicTitle, 'DynamicAttachment', true],
      [containerTitle, 'DynamicContainer', true],
    ].sort(),
  )
  // Enabling during the game tells the players.
  const publicNotices = await api.get<{ type: string; values: string[] }[]>(`/api/game/${gameId}/notices`)
  expect(
    publicNotices
      .filter((n) => n.type === 'NewChallenge')
      .map((n) => n.values[0])
      .sort(),
  ).toEqual([containerTitle, dynamicTitle, staticTitle].sort())

  // 9. A team registers; the organiser accepts it on the review tab.
  const playerName = uniqueName('rv')
  const player = await playerSession(browser, playerName)
  const team = await player.api.post<{ id: number; name: string }>('/api/team', {
    name: uniqueName('Rev'),
    bio: 'Reviewed',
  })
  await player.api.post(`/api/game/${gameId}`, { teamId: team.id, division: 'Open' })
  await tab('Review').click()
  await page.getByRole('button', { name: new RegExp(team.name) }).click()
  await expect(page.getByRole('cell', { name: `${playerName}@example.com` })).toBeVisible()
  await page.getByRole('button', { name: `Accept ${team.name}` }).click()
  await expect(page.getByText(`${team.name} is accepted`)).toBeVisible()
  await expect(page.getByRole('button', { name: `Suspend ${team.name}` })).toBeVisible()
  // The accepted team hands in a writeup; it is listed with a link that opens it.
  const xsrf = (await player.context.storageState()).cookies.find((c) => c.name === 'XSRF-TOKEN')?.value
  const uploaded = await player.context.request.post(`/api/game/${gameId}/writeup`, {
    headers: { 'X-XSRF-TOKEN': xsrf ?? '' },
    multipart: {
      file: { name: 'writeup.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4\n%%EOF\n') },
    },
  })
  expect(uploaded.status()).toBe(200)
  await tab('Writeups').click()
  await expect(page.getByRole('list', { name: 'Writeups' }).getByText(team.name)).toBeVisible()
  await expect(
    page.getByRole('link', { name: `Open the writeup of ${team.name} (PDF, new tab)` }),
  ).toHaveAttribute('href', /^\/assets\/[0-9a-f]{64}\/Writeup-.+\.pdf$/)
  await expect(page.getByRole('link', { name: 'Download all' })).toHaveAttribute(
    'href',
    `/api/admin/writeups/${gameId}/all`,
  )
  const participations = await api.get<{ team: { id: number }; status: string }[]>(
    `/api/game/${gameId}/participations`,
  )
  expect(participations.find((p) => p.team.id === team.id)?.status).toBe('Accepted')

  // 10. Screenshots of every screen (at both widths in both schemes when asked, see shootAll).
  const shots: [string, string, () => Promise<void>][] = [
    [
      'authoring-games',
      '/admin/games',
      async () => {
        await expect(page.getByRole('link', { name: title, exact: true })).toBeVisible()
      },
    ],
    [
      'authoring-info',
      `/admin/games/${gameId}/info`,
      async () => {
        await expect(page.getByRole('textbox', { name: 'Summary' })).toHaveValue(
          'Spring practice for the club',
        )
      },
    ],
    [
      'authoring-notices',
      `/admin/games/${gameId}/notices`,
      async () => {
        await expect(page.getByText('the game is on!')).toBeVisible()
      },
    ],
    [
      'authoring-challenges',
      `/admin/games/${gameId}/challenges`,
      async () => {
        await expect(page.getByRole('link', { name: containerTitle, exact: true })).toBeVisible()
      },
    ],
    [
      'authoring-challenge-editor',
      `/admin/games/${gameId}/challenges/${staticId}`,
      async () => {
        await expect(page.getByRole('textbox', { name: 'Hint 1' })).toHaveValue('Try a small exponent')
      },
    ],
    [
      'authoring-flags',
      `/admin/games/${gameId}/challenges/${staticId}/flags`,
      async () => {
        await expect(page.getByText('flag{cube_root}')).toBeVisible()
      },
    ],
    [
      'authoring-flags-template',
      `/admin/games/${gameId}/challenges/${containerId}/flags`,
      async () => {
        await expect(page.getByTestId('flag-example').first()).toBeVisible()
      },
    ],
    [
      'authoring-review',
      `/admin/games/${gameId}/review`,
      async () => {
        await page.getByRole('button', { name: new RegExp(team.name) }).click()
        await expect(page.getByRole('button', { name: `Suspend ${team.name}` })).toBeVisible()
      },
    ],
    [
      'authoring-writeups',
      `/admin/games/${gameId}/writeups`,
      async () => {
        await expect(page.getByRole('link', { name: 'Download all' })).toBeVisible()
      },
    ],
  ]
  for (const [name, path, ready] of shots) {
    await page.goto(path)
    await ready()
    await shootAll(page, name, ready)
  }

  await player.context.close()
  await admin.context.close()
})

test('players create a team, join it by its invite code and hand over the captaincy', async ({
  browser,
  uniqueName,
}) => {
  test.setTimeout(120_000)
  const captainName = uniqueName('cap')
  const memberName = uniqueName('mem')
  const teamName = uniqueName('Herring')
  const a = await playerSession(browser, captainName)
  const b = await playerSession(browser, memberName)

  // Anonymous visitors are sent to the login page.
  const anonymous = await browser.newContext({ baseURL: harnessEnv().baseUrl })
  const anonymousPage = await anonymous.newPage()
  await anonymousPage.goto('/teams')
  await expect(anonymousPage).toHaveURL(/\/account\/login\?from=%2Fteams/)
  await anonymous.close()

  // 1. No team yet; create one.
  await a.page.goto('/teams')
  await expect(a.page.getByRole('heading', { level: 1, name: 'Teams' })).toBeVisible()
  await expect(a.page.getByText('No team yet')).toBeVisible()
  await a.page.getByRole('button', { name: 'Create team' }).click()
  const create = dialog(a.page, 'Create a team')
  await create.getByRole('textbox', { name: 'Team name' }).fill(teamName)
  await create.getByRole('textbox', { name: 'Bio' }).fill('We fish for flags')
  await create.getByRole('button', { name: 'Create' }).click()
  const card = a.page.getByRole('article', { name: teamName })
  await expect(card).toBeVisible()
  await expect(card.getByRole('img', { name: 'You captain this team' })).toBeVisible()
  await expect(card.getByText('We fish for flags')).toBeVisible()
  await expect(card.getByText('Members: 1')).toBeVisible()
  const [created] = await a.api.get<{ id: number; name: string; bio: string }[]>('/api/team')
  expect(created).toMatchObject({ name: teamName, bio: 'We fish for flags' })

  // 2. The captain reads the invite code (masked until revealed).
  await card.getByRole('button', { name: `Manage ${teamName}` }).click()
  const manage = dialog(a.page, `Team ${teamName}`)
  const codeField = manage.getByRole('textbox', { name: 'Invite code' })
  await expect(codeField).toHaveValue(new RegExp(`^${teamName}:${created!.id}:•+$`))
  await manage.getByRole('button', { name: 'Show the invite code' }).click()
  const code = await codeField.inputValue()
  expect(code).toMatch(new RegExp(`^${teamName}:${created!.id}:[0-9a-f]{32}$`))
  await manage.getByRole('button', { name: 'Show QR code' }).click()
  await expect(manage.getByRole('img', { name: 'The invite code as a QR code' })).toBeVisible()

  // Screenshots: the page, and the manage view.
  await a.page.keyboard.press('Escape')
  await shootAll(a.page, 'teams-page', async () => {
    await expect(a.page.getByRole('article', { name: teamName })).toBeVisible()
  })
  const openManage = async () => {
    await a.page.getByRole('button', { name: `Manage ${teamName}` }).click()
    await expect(
      dialog(a.page, `Team ${teamName}`).getByRole('textbox', { name: 'Invite code' }),
    ).toBeVisible()
  }
  await openManage()
  await shootAll(a.page, 'teams-manage', openManage)
  await a.page.keyboard.press('Escape')

  // 3. The second player: a malformed code is caught in the browser, the real one joins.
  await b.page.goto('/teams')
  await b.page.getByRole('button', { name: 'Join team' }).click()
  const join = dialog(b.page, 'Join a team')
  await join.getByRole('textbox', { name: 'Invite code' }).fill(`${teamName}:${created!.id}:nothex`)
  await join.getByRole('button', { name: 'Join' }).click()
  await expect(join.getByText('This is not an invite code')).toBeVisible()
  await join.getByRole('textbox', { name: 'Invite code' }).fill(code)
  await join.getByRole('button', { name: 'Join' }).click()
  await expect(join).toBeHidden()
  const bCard = b.page.getByRole('article', { name: teamName })
  await expect(bCard.getByText('Members: 2')).toBeVisible()
  await expect(bCard.getByRole('img', { name: 'You captain this team' })).toHaveCount(0)

  // 4. The captain hands the captaincy to the new member.
  await a.page.goto('/teams')
  await a.page.getByRole('button', { name: `Manage ${teamName}` }).click()
  const members = dialog(a.page, `Team ${teamName}`).getByRole('list', { name: 'Members' })
  await expect(members.getByText(memberName)).toBeVisible()
  await members.getByRole('button', { name: `Make ${memberName} captain` }).click()
  await confirmWith(a.page, 'Make captain', 'Make captain')
  await expect(a.page.getByText(`${memberName} is now the captain`)).toBeVisible()
  const memberRow = members.getByRole('listitem').filter({ hasText: memberName })
  await expect(memberRow.getByText('Captain')).toBeVisible()
  await expect(
    members.getByRole('listitem').filter({ hasText: captainName }).getByText('Captain'),
  ).toHaveCount(0)
  // No longer the captain: no invite code, leave instead of disband.
  await expect(dialog(a.page, `Team ${teamName}`).getByRole('textbox', { name: 'Invite code' })).toHaveCount(
    0,
  )
  await expect(dialog(a.page, `Team ${teamName}`).getByRole('button', { name: 'Leave team' })).toBeVisible()
  await a.page.keyboard.press('Escape')
  await expect(
    a.page.getByRole('article', { name: teamName }).getByRole('img', { name: 'You captain this team' }),
  ).toHaveCount(0)

  const team = await b.api.get<{ members: { userName: string; captain: boolean }[] }>(
    `/api/team/${created!.id}`,
  )
  expect(team.members.filter((m) => m.captain).map((m) => m.userName)).toEqual([memberName])

  await b.page.reload()
  await expect(
    b.page.getByRole('article', { name: teamName }).getByRole('img', { name: 'You captain this team' }),
  ).toBeVisible()

  await a.context.close()
  await b.context.close()
})
