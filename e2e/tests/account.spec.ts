import type { Route } from '@playwright/test'
import { ApiClient, expect, harnessEnv, test } from '../harness/fixtures.ts'
import {
  b64,
  field,
  fillRegistration,
  logInThroughForm,
  notifications,
  tinyPng,
  toast,
} from './account-helpers.ts'

// The account screens as a user meets them: real server, real mail, real Chromium.

test('a new user registers, confirms the mailed link, edits the profile and changes the password', async ({
  page,
  adminApi,
  mailbox,
  uniqueName,
}) => {
  test.setTimeout(90_000)
  await adminApi.setAccountPolicy({
    allowRegister: true,
    activeOnRegister: false,
    emailConfirmationRequired: true,
    useCaptcha: false,
  })
  const userName = uniqueName('acct')
  const email = `${userName}@example.org`
  const password = 'Start1pass'
  const newPassword = 'Changed2pass!'

  // Register: the server asks for the e-mail confirmation.
  await page.goto('/account/register')
  await expect(page.getByRole('heading', { level: 1, name: 'Register' })).toBeVisible()
  await fillRegistration(page, { email, userName, password })
  await page.getByRole('button', { name: 'Register' }).click()
  await expect(toast(page, 'Check your mail')).toBeVisible()
  await expect(page).toHaveURL(/\/account\/login$/)

  // The mailed link confirms the address and signs in.
  const mail = await mailbox.waitForMail({ to: email, subject: 'Confirm your e-mail' })
  const link = mail.links.find((l) => l.includes('/account/verify?'))
  expect(link).toBeTruthy()
  await page.goto(link!)
  await expect(page.getByText(`Confirm ${email} to activate your account.`)).toBeVisible()
  await page.getByRole('button', { name: 'Confirm and log in' }).click()
  await expect(toast(page, 'E-mail confirmed')).toBeVisible()
  await expect(page).toHaveURL(/\/$/)

  // Log in (again) and come back to the profile through ?from=.
  await logInThroughForm(page, userName, password, '/account/profile')
  await expect(page).toHaveURL(/\/account\/profile$/)
  await expect(page.getByRole('heading', { level: 1, name: userName })).toBeVisible()
  await expect(field(page, 'E-mail')).toHaveValue(email)

  // Edit the profile; a reload shows what was saved.
  const save = page.getByRole('button', { name: 'Save' })
  await expect(save).toBeDisabled()
  await field(page, 'Real name').fill('Ada Lovelace')
  await field(page, 'Student number').fill('S-1815')
  await field(page, 'Phone').fill('+44 20 7946 0000')
  await field(page, 'About you').fill('Writes the first programs.')
  await save.click()
  await expect(toast(page, 'Profile saved')).toBeVisible()
  await page.reload()
  await expect(field(page, 'Real name')).toHaveValue('Ada Lovelace')
  await expect(field(page, 'Student number')).toHaveValue('S-1815')
  await expect(field(page, 'Phone')).toHaveValue('+44 20 7946 0000')
  await expect(field(page, 'About you')).toHaveValue('Writes the first programs.')

  // Upload an avatar: the picture replaces the initials.
  const avatar = page.getByRole('img', { name: `Avatar of ${userName}` })
  await expect(avatar).not.toHaveAttribute('src')
  await page
    .locator('input[type="file"]')
    .setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: tinyPng(16) })
  await expect(toast(page, 'Uploaded')).toBeVisible()
  await expect(avatar).toHaveAttribute('src', /^\/assets\/[0-9a-f]{64}\/avatar$/)
  expect(await avatar.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true)

  // Change the password; other sessions end, this one stays.
  await page.getByRole('button', { name: 'Change password' }).click()
  const dialog = page.getByRole('dialog', { name: 'Change password' })
  await field(dialog, 'Current password').fill(password)
  await field(dialog, 'New password').fill(newPassword)
  await field(dialog, 'Retype the password').fill(newPassword)
  await dialog.getByRole('button', { name: 'Change password' }).click()
  await expect(toast(page, 'every other device and browser was logged out')).toBeVisible()
  await expect(dialog).toBeHidden()

  // Log out, then the old password fails and the new one works.
  await page.getByRole('button', { name: 'Log out' }).click()
  await expect(page).toHaveURL(/\/$/)
  await expect(page.getByRole('link', { name: 'Log in' })).toBeVisible()
  await page.goto('/account/login')
  await field(page, 'User name or e-mail').fill(userName)
  await field(page, 'Password').fill(password)
  await page.getByRole('button', { name: 'Log in' }).click()
  await expect(toast(page, 'Incorrect user name or password')).toBeVisible()
  await logInThroughForm(page, email, newPassword)
  await expect(page).toHaveURL(/\/$/)
  await expect(page.getByRole('button', { name: `Account menu: ${userName}` })).toBeVisible()
})

test('a wrong password shows the server’s message in a red notification', async ({ page }) => {
  await page.goto('/account/login')
  await field(page, 'User name or e-mail').fill('Admin')
  await field(page, 'Password').fill('not-the-password')
  await page.getByRole('button', { name: 'Log in' }).click()

  const alert = toast(page, 'Incorrect user name or password')
  await expect(alert).toBeVisible()
  await expect(notifications(page)).toContainText('Incorrect user name or password')
  expect(await alert.getAttribute('style')).toContain('--mantine-color-red')
  await expect(page).toHaveURL(/\/account\/login$/)
})

test('client checks catch mistakes before the server sees them', async ({ page }) => {
  await page.goto('/account/register')
  await field(page, 'E-mail').fill('not-an-address')
  await field(page, 'User name').fill('ab')
  await field(page, 'Password').fill('weakpass')
  await field(page, 'Retype the password').fill('different')
  await page.getByRole('list', { name: 'Password rules' }).waitFor()
  await page.getByRole('button', { name: 'Register' }).click()
  await expect(page.getByText('Enter an e-mail address like name@example.org')).toBeVisible()
  await expect(page.getByText('User names have 3 to 15 characters')).toBeVisible()
  await expect(page.getByText('Use a digit, a lowercase letter and an uppercase letter')).toBeVisible()
  await expect(page.getByText('The passwords do not match')).toBeVisible()
  await expect(notifications(page).getByRole('alert')).toHaveCount(0)
})

test('?from= only leads back into the site', async ({ page, uniqueName, adminApi }) => {
  await adminApi.setAccountPolicy({ allowRegister: true, activeOnRegister: true, useCaptcha: false })
  const userName = uniqueName('from')
  await page.goto('/account/register')
  await fillRegistration(page, { email: `${userName}@example.org`, userName, password: 'Fr0mHere' })
  await page.getByRole('button', { name: 'Register' }).click()
  await expect(page).toHaveURL(/\/$/)
  await page.getByRole('button', { name: `Account menu: ${userName}` }).click()
  await page.getByRole('menuitem', { name: 'Log out' }).click()
  await expect(page.getByRole('link', { name: 'Log in' })).toBeVisible()

  await logInThroughForm(page, userName, 'Fr0mHere', '//evil.example/steal')
  await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/$/)
})

test('a password reset from the mailed link', async ({ page, adminApi, mailbox, uniqueName, baseURL }) => {
  await adminApi.setAccountPolicy({
    allowRegister: true,
    activeOnRegister: true,
    emailConfirmationRequired: true,
    useCaptcha: false,
  })
  const userName = uniqueName('reset')
  const email = `${userName}@example.org`
  const client = await ApiClient.create(baseURL!)
  await client.post('/api/account/register', { userName, email, password: 'Old1pass' })
  await client.dispose()

  await page.goto('/account/login')
  await page.getByRole('link', { name: 'Forgot your password?' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Forgot your password?' })).toBeVisible()
  await field(page, 'E-mail').fill(email)
  await page.getByRole('button', { name: 'Send the link' }).click()
  await expect(
    page.getByRole('status').filter({ hasText: `A reset link is on its way to ${email}` }),
  ).toBeVisible()

  const mail = await mailbox.waitForMail({ to: email, subject: 'Reset your password' })
  await page.goto(mail.links.find((l) => l.includes('/account/reset?'))!)
  await expect(page.getByText(`For the account of ${email}`)).toBeVisible()
  await field(page, 'New password').fill('New2pass')
  await field(page, 'Retype the password').fill('New2pass')
  await page.getByRole('button', { name: 'Set the password' }).click()
  await expect(page).toHaveURL(/\/account\/login$/)
  await logInThroughForm(page, userName, 'New2pass')
  await expect(page.getByRole('button', { name: `Account menu: ${userName}` })).toBeVisible()
})

test('broken links say so instead of showing a form', async ({ page }) => {
  await page.goto('/account/reset?token=abc')
  await expect(page.getByText('The link is incomplete')).toBeVisible()
  await expect(page.getByRole('button', { name: 'Set the password' })).toHaveCount(0)

  await page.goto(
    `/account/verify?token=${encodeURIComponent(b64('nope'))}&email=${encodeURIComponent(b64('x@y.z'))}`,
  )
  await page.getByRole('button', { name: 'Confirm and log in' }).click()
  await expect(page.getByText('This link is invalid or expired')).toBeVisible()

  // The e-mail change link needs a signed-in user: it goes to the login page and back.
  const confirm = `/account/confirm?token=abc&email=${encodeURIComponent(b64('x@y.z'))}`
  await page.goto(confirm)
  await expect(page).toHaveURL(
    (url) => url.pathname === '/account/login' && url.searchParams.get('from') === confirm,
  )
})

test('registration with the proof-of-work captcha', async ({ page, adminApi, uniqueName }) => {
  await adminApi.setAccountPolicy({
    allowRegister: true,
    activeOnRegister: true,
    emailConfirmationRequired: false,
    useCaptcha: true,
  })
  try {
    expect(await adminApi.get('/api/captcha')).toEqual({ type: 'HashPow', siteKey: '' })
    const userName = uniqueName('pow')
    await page.goto('/account/register')
    // The answer is computed in a worker while the form is filled in.
    const status = page.getByRole('status').filter({ hasText: /Check passed|not a robot/ })
    await expect(status).toHaveText('Check passed', { timeout: 20_000 })
    await expect(page.getByText(/Solved in \d+\.\d\d s at [\d.]+ (H|kH|MH)\/s|Solved earlier/)).toBeVisible()
    const cached = await page.evaluate(() => JSON.parse(localStorage.getItem('pow-chall') ?? 'null'))
    expect(cached).toMatchObject({ id: expect.stringMatching(/^[0-9a-f]{12}$/), answer: expect.any(String) })

    await fillRegistration(page, { email: `${userName}@example.org`, userName, password: 'P0wPower' })
    await page.getByRole('button', { name: 'Register' }).click()
    await expect(page).toHaveURL(/\/$/)
    await expect(page.getByRole('button', { name: `Account menu: ${userName}` })).toBeVisible()
    // The answer was spent: it is gone from the cache.
    expect(await page.evaluate(() => localStorage.getItem('pow-chall'))).toBeNull()
  } finally {
    await adminApi.setAccountPolicy({ useCaptcha: false })
  }
})

test('screenshots of the account screens, home, posts and about', async ({ page, shootAll, adminApi }) => {
  test.setTimeout(150_000)
  const shoot = async (path: string, name: string, ready: () => Promise<unknown>) => {
    await page.goto(path)
    await ready()
    await shootAll(page, name)
  }
  const h1 = (name: string) => () => expect(page.getByRole('heading', { level: 1, name })).toBeVisible()
  const link = `token=${encodeURIComponent(b64('token'))}&email=${encodeURIComponent(b64('ada@example.org'))}`

  await shoot('/account/login', 'account-login', h1('Log in'))
  await shoot('/account/register', 'account-register', h1('Register'))
  await shoot('/account/recovery', 'account-recovery', h1('Forgot your password?'))
  await shoot(`/account/reset?${link}`, 'account-reset', h1('Choose a new password'))
  await shoot(`/account/verify?${link}`, 'account-verify', h1('Confirm your e-mail'))
  await shoot('/about', 'about', h1('About Pennant'))

  // Something to show: a pinned post with tags, a plain one, a running game with a poster and an
  // upcoming one.
  const stamp = Date.now().toString(36)
  const pinned = await adminApi.post<string>('/api/edit/posts', {
    title: `Finals schedule ${stamp}`,
    summary: 'The finals start **Saturday 10:00 UTC**. Teams must be registered by Friday.',
    content: '## Schedule\n\n| Day | Event |\n|---|---|\n| Sat | Finals |\n\nGood luck!',
    tags: ['finals', 'schedule'],
    isPinned: true,
  })
  await adminApi.post('/api/edit/posts', {
    title: `Scoring explained ${stamp}`,
    summary: 'Dynamic scores drop as more teams solve a challenge; the first three solves earn a bonus.',
    content: 'Details follow.',
    tags: ['rules'],
  })
  const hour = 3_600_000
  const running = await adminApi.post<{ id: number }>('/api/edit/games', {
    title: `Spring Open ${stamp}`,
    summary: 'Two days of web, crypto and pwn.',
    start: Date.now() - hour,
    end: Date.now() + 47 * hour,
  })
  const xsrf =
    (await adminApi.context.storageState()).cookies.find((c) => c.name === 'XSRF-TOKEN')?.value ?? ''
  const poster = await adminApi.context.put(`/api/edit/games/${running.id}/poster`, {
    headers: { 'X-XSRF-TOKEN': xsrf },
    multipart: { file: { name: 'poster.png', mimeType: 'image/png', buffer: tinyPng(96, [40, 110, 200]) } },
  })
  expect(poster.ok()).toBe(true)
  await adminApi.post('/api/edit/games', {
    title: `Autumn Qualifier ${stamp}`,
    start: Date.now() + 14 * 24 * hour,
    end: Date.now() + 15 * 24 * hour,
  })

  await logInThroughForm(page, 'Admin', process.env.PENNANT_E2E_ADMIN_PASSWORD!)
  await shoot('/', 'home', () => expect(page.getByText(`Spring Open ${stamp}`)).toBeVisible())
  await shoot('/posts', 'posts', h1('Posts'))
  await shoot(`/posts/${pinned}`, 'post', h1(`Finals schedule ${stamp}`))
  await shoot(`/posts/${pinned}/edit`, 'post-edit', h1('Edit post'))
  await shoot('/account/profile', 'account-profile', h1('Admin'))
})

test('an admin writes, pins, edits and deletes a post', async ({ page }) => {
  test.setTimeout(90_000)
  await logInThroughForm(page, 'Admin', process.env.PENNANT_E2E_ADMIN_PASSWORD!)
  const title = `Rules ${Date.now().toString(36)}`

  await page.goto('/posts')
  await page.getByRole('link', { name: 'New post' }).click()
  await expect(page).toHaveURL(/\/posts\/new\/edit$/)
  await expect(page.getByRole('heading', { level: 1, name: 'New post' })).toBeVisible()
  await page.getByRole('button', { name: 'Publish' }).click()
  await expect(page.getByText('A post needs a title')).toBeVisible()

  await field(page, 'Title').fill(title)
  await field(page, 'Summary').fill('Read the **rules** first.')
  await field(page, 'Content').fill('## Scoring\n\nDynamic scores, *three* bloods.')
  const view = page.getByRole('radiogroup', { name: 'Content view' })
  await view.getByText('Preview').click()
  await expect(page.getByRole('heading', { level: 2, name: 'Scoring' })).toBeVisible()
  await view.getByText('Write').click()
  const tags = page.getByRole('combobox', { name: 'Tags' })
  await tags.fill('rules')
  await tags.press('Enter')
  await tags.fill('news')
  await tags.press('Enter')
  const pin = page.getByRole('switch', { name: 'Pin to the top of the home page' })
  await pin.click()
  await expect(pin).toBeChecked()
  await page.getByRole('button', { name: 'Publish' }).click()
  await expect(toast(page, 'Post published')).toBeVisible()
  await expect(page).toHaveURL(/\/posts\/[0-9a-f]{8}\/edit$/)
  const id = page.url().match(/\/posts\/([0-9a-f]{8})\/edit$/)![1]!
  await expect(page.getByRole('heading', { level: 1, name: 'Edit post' })).toBeVisible()
  await expect(field(page, 'Title')).toHaveValue(title)

  // Leaving with unsaved changes asks first.
  await field(page, 'Title').fill(`${title}!`)
  await expect(page.getByText('Unsaved changes')).toBeVisible()
  await page.getByRole('link', { name: 'View post' }).click()
  const leave = page.getByRole('dialog', { name: 'Leave without saving?' })
  await expect(leave).toBeVisible()
  await leave.getByRole('button', { name: 'Cancel' }).click()
  await expect(page).toHaveURL(new RegExp(`/posts/${id}/edit$`))
  await page.getByRole('button', { name: 'Save' }).click()
  await expect(toast(page, 'Post saved')).toBeVisible()
  await page.getByRole('link', { name: 'View post' }).click()
  await expect(page).toHaveURL(new RegExp(`/posts/${id}$`))
  await expect(page.getByRole('heading', { level: 1, name: `${title}!` })).toBeVisible()
  await expect(page.getByRole('heading', { level: 2, name: 'Scoring' })).toBeVisible()
  await expect(page.getByRole('list', { name: 'Tags' })).toHaveText(/rules\s*news/)

  // Pinned first on the home page; unpinning from the card.
  await page.goto('/')
  const card = page.getByRole('article').filter({ hasText: `${title}!` })
  await expect(page.getByRole('article').first()).toContainText(`${title}!`)
  await expect(card.getByText('Pinned')).toBeVisible()
  await card.getByRole('button', { name: `Unpin “${title}!”` }).click()
  await expect(toast(page, 'Post unpinned')).toBeVisible()
  await expect(card.getByText('Pinned')).toHaveCount(0)
  await expect(card.getByRole('button', { name: `Pin “${title}!”` })).toBeVisible()

  // Delete, after a confirmation.
  await card.getByRole('link', { name: `Edit “${title}!”` }).click()
  await page.getByRole('button', { name: 'Delete' }).click()
  await page
    .getByRole('dialog', { name: 'Delete this post?' })
    .getByRole('button', { name: 'Delete' })
    .click()
  await expect(page).toHaveURL(/\/posts$/)
  await expect(page.getByRole('article').filter({ hasText: title })).toHaveCount(0)
  await page.goto(`/posts/${id}`)
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible()
  await page.goto('/posts/not-an-id')
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible()
})

test('a signed-in admin whose session check fails is told so and can retry, not sent to log in', async ({
  browser,
}) => {
  const context = await browser.newContext({ baseURL: harnessEnv().baseUrl })
  try {
    await new ApiClient(context.request).signIn('Admin', harnessEnv().adminPassword)
    const page = await context.newPage()
    // The server cannot be reached for "who is signed in" (restarting, overloaded, offline).
    const unreachable = (route: Route) => route.abort('connectionrefused')
    await page.route('**/api/account/profile', unreachable)
    await page.goto('/admin/games')
    const alert = page.getByRole('alert').filter({ hasText: 'Could not check who is signed in' })
    await expect(alert).toBeVisible({ timeout: 20_000 })
    await expect(page).toHaveURL(/\/admin\/games$/)
    // Nor does the frame offer to log in: this visitor may well be signed in.
    await expect(page.getByRole('link', { name: 'Log in' })).toHaveCount(0)
    // Back again: the retry shows the page the admin asked for.
    await page.unroute('**/api/account/profile', unreachable)
    await alert.getByRole('button', { name: 'Try again' }).click()
    await expect(page.getByRole('heading', { level: 1, name: 'Games' })).toBeVisible()
    await expect(page).toHaveURL(/\/admin\/games$/)
  } finally {
    await context.close()
  }
})
