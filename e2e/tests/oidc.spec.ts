import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { BrowserContext, Page } from '@playwright/test'
import { startTestIdp, type TestIdp } from '../../server/test/helpers/oidc-idp.ts'
import { ApiClient, expect, harnessEnv, screenshot, shootAll, test, uniqueName } from '../harness/fixtures.ts'
import { field, toast } from './account-helpers.ts'

// Sign-in with an identity provider, as people use it: an admin adds a provider and switches the
// feature on in the admin screen; a player signs in through the provider's own login page (a real
// OpenID provider started here) and lands signed in; a refusal reads as a message on the login
// page. The tests run in order and share the provider.

test.describe.configure({ mode: 'serial' })

/** axe-core, run in the page through the debugger protocol (the page's CSP does not apply). */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

/** No critical or serious axe violation on the page as it is, in the dark and the light scheme. */
async function expectAccessible(page: Page) {
  for (const scheme of ['dark', 'light'] as const) {
    await page.evaluate(
      ([key, value]) => {
        localStorage.setItem(key, value)
        window.dispatchEvent(new StorageEvent('storage', { key, newValue: value, storageArea: localStorage }))
      },
      ['mantine-color-scheme-value', scheme] as const,
    )
    await page.locator(`html[data-mantine-color-scheme="${scheme}"]`).waitFor({ state: 'attached' })
    // real wait: the browser's colour transitions run in real time before the screenshot
    await page.waitForTimeout(300)
    await page.evaluate(AXE_SOURCE)
    const found = await page.evaluate(async () => {
      const { axe } = window as unknown as {
        axe: {
          run: (
            d: Document,
            o: object,
          ) => Promise<{ violations: { id: string; impact?: string; nodes: { target: string[] }[] }[] }>
        }
      }
      const { violations } = await axe.run(document, {
        resultTypes: ['violations'],
        rules: { 'label-content-name-mismatch': { enabled: true } },
      })
      return violations
        .filter((v) => v.impact === 'critical' || v.impact === 'serious')
        .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
    })
    expect(found, `axe (${scheme})`).toEqual([])
  }
}

const SLUG = 'campus'
const NAME = 'Campus Login'

test.describe('sign-in with an identity provider', () => {
  let idp: TestIdp
  let admin: { context: BrowserContext; page: Page; api: ApiClient }

  test.beforeAll(async ({ browser }) => {
    const { baseUrl, adminPassword } = harnessEnv()
    idp = await startTestIdp({ redirectUris: [`${baseUrl}/api/ext/oidc/${SLUG}/callback`] })
    const context = await browser.newContext({ baseURL: baseUrl })
    const api = await new ApiClient(context.request).signIn('Admin', adminPassword)
    admin = { context, page: await context.newPage(), api }
  })

  test.afterAll(async () => {
    // Leave the platform as the other specs expect it: no providers, the switch off.
    if (admin) {
      const providers = await admin.api.get<{ id: number }[]>('/api/ext/admin/identity-providers')
      for (const p of providers) await admin.api.delete(`/api/ext/admin/identity-providers/${p.id}`)
      await admin.api.put('/api/ext/features', { oidc: false })
      await admin.context.close()
    }
    await idp?.close()
  })

  test('an admin adds a provider and switches sign-in with it on', async () => {
    const { page } = admin
    await page.goto('/admin')
    await page.getByRole('link', { name: 'Identity providers' }).click()
    await expect(page.getByRole('heading', { level: 1, name: 'Identity providers' })).toBeVisible()
    await expect(page.getByText('No identity providers yet')).toBeVisible()

    await page.getByRole('button', { name: 'Add provider' }).first().click()
    const dialog = page.getByRole('dialog', { name: 'New identity provider' })
    await field(dialog, 'Display name').fill(NAME)
    await expect(field(dialog, 'Short name')).toHaveValue(`${SLUG}-login`)
    await field(dialog, 'Short name').fill(SLUG)
    // A plain-http issuer elsewhere than this machine is refused before it is sent.
    await field(dialog, 'Issuer URL').fill('http://id.example.org')
    await field(dialog, 'Client ID').fill(idp.clientId)
    await dialog.getByLabel('Client secret').fill(idp.clientSecret)
    await dialog.getByRole('switch', { name: /New accounts may be created/ }).check({ force: true })
    await screenshot(page, 'oidc-admin-add')
    await dialog.getByRole('button', { name: 'Add provider' }).click()
    await expect(dialog.getByText('Enter an https:// URL (http:// only on localhost)')).toBeVisible()
    await field(dialog, 'Issuer URL').fill(idp.issuer)
    await dialog.getByRole('button', { name: 'Add provider' }).click()
    await expect(toast(page, `Added ${NAME}`)).toBeVisible()
    await expect(dialog).toBeHidden()

    const item = page.getByRole('list', { name: 'Identity providers' }).getByRole('listitem')
    await expect(item.getByRole('heading', { name: NAME })).toBeVisible()
    await expect(item.getByText('New accounts allowed')).toBeVisible()
    // The secret never comes back, only its end; the redirect URI to register is shown.
    await expect(item.getByText(`…${idp.clientSecret.slice(-4)}`)).toBeVisible()
    await expect(page.getByText(idp.clientSecret)).toHaveCount(0)
    await expect(item.getByRole('textbox', { name: 'Redirect URI to register at the provider' })).toHaveValue(
      `${harnessEnv().baseUrl}/api/ext/oidc/${SLUG}/callback`,
    )
    await expect(page.getByText('players do not see these providers yet')).toBeVisible()

    // Nobody is offered the provider until the switch is on.
    const anon = await admin.context.browser()!.newContext({ baseURL: harnessEnv().baseUrl })
    const login = await anon.newPage()
    await login.goto('/account/login')
    await expect(login.getByRole('button', { name: 'Log in' })).toBeVisible()
    await expect(login.getByRole('link', { name: `Continue with ${NAME}` })).toHaveCount(0)

    // The switch follows the server: it shows on once the change is saved.
    const feature = page.getByRole('switch', { name: 'Offer sign-in with identity providers' })
    await feature.click({ force: true })
    await expect(feature).toBeChecked()
    await expect(toast(page, 'Sign-in with identity providers is on')).toBeVisible()
    await expect(page.getByText('players do not see these providers yet')).toBeHidden()
    await shootAll(page, 'oidc-admin')
    await expectAccessible(page)

    await login.reload()
    await expect(login.getByRole('link', { name: `Continue with ${NAME}` })).toBeVisible()
    await anon.close()
  })

  test('a player signs in through the provider’s login page and lands signed in', async ({ browser }) => {
    const userName = uniqueName('sso')
    const subject = uniqueName('sub')
    idp.accounts.set(subject, {
      email: `${userName}@campus.example`,
      email_verified: true,
      preferred_username: userName,
    })
    const context = await browser.newContext({ baseURL: harnessEnv().baseUrl })
    const page = await context.newPage()
    await page.goto('/account/login?from=%2Fteams')
    await shootAll(page, 'oidc-login')
    await page.getByRole('link', { name: `Continue with ${NAME}` }).click()

    // The provider's own page, on its own origin.
    await expect(page).toHaveURL(new RegExp(`^${idp.issuer}/interaction/`))
    await expect(page.getByRole('heading', { name: 'Test identity provider' })).toBeVisible()
    await page.getByRole('textbox', { name: 'Account' }).fill(subject)
    await page.getByRole('button', { name: 'Continue' }).click()

    // Back on Pennant, signed in, where the player was going.
    await expect(page).toHaveURL(/\/teams$/)
    await expect(page.getByRole('heading', { level: 1, name: 'Teams' })).toBeVisible()
    await page.goto('/account/profile')
    await expect(page.getByRole('heading', { level: 1, name: userName })).toBeVisible()
    await expect(page.getByText(`${userName}@campus.example`).first()).toBeVisible()
    const section = page.getByRole('region', { name: 'Sign-in with identity providers' })
    await expect(section.getByText('Linked', { exact: true })).toBeVisible()
    // The only way into this account: it cannot be unlinked.
    await expect(
      section.getByText('This is your only way to sign in, so it cannot be unlinked.'),
    ).toBeVisible()
    await expect(section.getByRole('button', { name: `Unlink your account from ${NAME}` })).toBeDisabled()
    await shootAll(page, 'oidc-profile')
    await expectAccessible(page)
    await context.close()
  })

  test('a password account links the provider from its profile', async ({ browser }) => {
    const userName = uniqueName('lnk')
    const password = 'Link1pass'
    const email = `${userName}@example.org`
    await admin.api.post('/api/admin/users', [{ userName, email, password }])
    const subject = uniqueName('sub')
    idp.accounts.set(subject, { email: `${subject}@campus.example`, email_verified: true })

    const context = await browser.newContext({ baseURL: harnessEnv().baseUrl })
    const page = await context.newPage()
    await new ApiClient(context.request).signIn(userName, password)
    await page.goto('/account/profile')
    const section = page.getByRole('region', { name: 'Sign-in with identity providers' })
    await expect(section.getByText('Not linked')).toBeVisible()
    await section.getByRole('button', { name: `Link your account to ${NAME}` }).click()
    await page.getByRole('textbox', { name: 'Account' }).fill(subject)
    await page.getByRole('button', { name: 'Continue' }).click()
    await expect(page).toHaveURL(/\/account\/profile\?oidcLinked=campus$/)
    await expect(section.getByText(`Your account is now linked to ${NAME}.`)).toBeVisible()
    await expect(section.getByText('Linked', { exact: true })).toBeVisible()

    // It keeps its password, so the link can go again.
    await section.getByRole('button', { name: `Unlink your account from ${NAME}` }).click()
    await page.getByRole('dialog').getByRole('button', { name: 'Unlink' }).click()
    await expect(toast(page, `Unlinked from ${NAME}`)).toBeVisible()
    await expect(section.getByText('Not linked')).toBeVisible()
    await context.close()
  })

  test('a refusal reads as a message on the login page', async ({ browser }) => {
    const subject = uniqueName('sub')
    idp.accounts.set(subject, { email: `${subject}@campus.example`, email_verified: false })
    const context = await browser.newContext({ baseURL: harnessEnv().baseUrl })
    const page = await context.newPage()
    await page.goto('/account/login')
    await page.getByRole('link', { name: `Continue with ${NAME}` }).click()
    await page.getByRole('textbox', { name: 'Account' }).fill(subject)
    await page.getByRole('button', { name: 'Continue' }).click()
    await expect(page).toHaveURL(/\/account\/login\?oidcError=email_unverified$/)
    const alert = page.getByRole('alert').filter({ hasText: 'has not verified your e-mail address' })
    await expect(alert).toBeVisible()
    await expect(alert).toContainText('Signing in through the identity provider did not work')
    await shootAll(page, 'oidc-login-error')
    await expectAccessible(page)

    await context.close()

    // Cancelling at the provider says so too (a fresh browser: this one is signed in there now).
    const other = await browser.newContext({ baseURL: harnessEnv().baseUrl })
    const page2 = await other.newPage()
    await page2.goto('/account/login')
    await page2.getByRole('link', { name: `Continue with ${NAME}` }).click()
    await page2.getByRole('button', { name: 'Cancel' }).click()
    await expect(page2).toHaveURL(/\/account\/login\?oidcError=denied$/)
    await expect(
      page2.getByRole('alert').filter({ hasText: 'cancelled at the identity provider' }),
    ).toBeVisible()
    await other.close()
  })
})
