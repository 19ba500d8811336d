import { readFileSync } from 'node:fs'
import { ALL_SCREENSHOTS, expect, test } from '../harness/fixtures.ts'

// The frame every page shares: routing, the language choice, the colour schemes.

test('an unknown path shows the not-found page', async ({ page }) => {
  await page.goto('/no/such/page')
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible()
})

test('routes are case-insensitive', async ({ page }) => {
  await page.goto('/account/login')
  const heading = page.getByRole('heading', { level: 1 })
  await expect(heading).toBeVisible()
  const title = (await heading.textContent()) ?? ''

  await page.goto('/ACCOUNT/LOGIN')
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(title)
  await expect(page.getByRole('combobox', { name: 'Language' })).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Page not found' })).toHaveCount(0)
})

test('a machine-translated language asks first, and "Switch to English" keeps English', async ({ page }) => {
  await page.goto('/account/login')
  const select = page.getByRole('combobox', { name: 'Language' })
  // The picker names it in its own language and marks it as machine translated.
  await select.selectOption({ label: 'Français (machine translated)' })

  const dialog = page.getByRole('dialog', { name: 'Machine translation' })
  await expect(dialog).toBeVisible()
  await dialog.getByRole('button', { name: 'Switch to English' }).click()

  await expect(dialog).toBeHidden()
  await expect(select).toHaveValue('en-US')
  await expect(page.locator('html')).toHaveAttribute('lang', 'en-US')
  await expect(page.getByRole('combobox', { name: 'Language' })).toBeVisible()
})

test('screenshots of the login page', async ({ page, shootAll }) => {
  await page.goto('/account/login')
  await expect(page.getByRole('combobox', { name: 'Language' })).toBeVisible()
  const files = await shootAll(page, 'account-login')
  expect(files).toHaveLength(ALL_SCREENSHOTS ? 4 : 1)
  for (const file of files) expect(readFileSync(file).subarray(1, 4).toString()).toBe('PNG')
})
