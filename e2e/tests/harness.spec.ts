import { ApiClient, expect, test } from '../harness/fixtures.ts'

// Checks of the harness itself (API and mail only, no page): if these fail, look here first.

test.describe.configure({ mode: 'serial' })

test('uniqueName gives distinct names of 3 to 15 characters', ({ uniqueName }) => {
  const names = [uniqueName(), uniqueName('a-long-prefix'), uniqueName('t')]
  expect(new Set(names).size).toBe(names.length)
  for (const name of names) expect(name).toMatch(/^.{3,15}$/)
})

test('the admin API changes the account policy; the mailbox gets the confirmation mail', async ({
  adminApi,
  mailbox,
  uniqueName,
  baseURL,
}) => {
  // A mail goes out only when new accounts are inactive until their address is confirmed.
  const change = { activeOnRegister: false, emailConfirmationRequired: true }
  const before = await adminApi.setAccountPolicy(change)
  expect(before).toMatchObject({ activeOnRegister: true, emailConfirmationRequired: false })
  const { accountPolicy } = await adminApi.getConfig()
  expect(accountPolicy).toEqual({ ...before, ...change })

  const userName = uniqueName('mail')
  const email = `${userName}@example.com`
  const visitor = await ApiClient.create(baseURL!)
  await visitor.post('/api/account/register', { userName, email, password: 'Corr3ct-horse' })
  await visitor.dispose()

  const mail = await mailbox.waitForMail({ to: email.toUpperCase() })
  expect(mail.to).toEqual([email])
  expect(mail.links.some((link) => link.startsWith(`${baseURL}/account/verify?`))).toBe(true)
  await expect(mailbox.waitForMail({ to: email, timeout: 300 })).rejects.toThrow(/no mail to/)
})

test('policy changes made through adminApi are undone after the test', async ({ adminApi }) => {
  const { accountPolicy } = await adminApi.getConfig()
  expect(accountPolicy).toMatchObject({ activeOnRegister: true, emailConfirmationRequired: false })
})
