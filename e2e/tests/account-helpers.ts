import { crc32, deflateSync } from 'node:zlib'
import type { Locator, Page } from '@playwright/test'
import { expect } from '../harness/fixtures.ts'

/** A small solid-colour PNG (RGB, 8 bits), built here so the test needs no image files. */
export function tinyPng(size = 8, rgb: [number, number, number] = [220, 40, 60]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data])
    const out = Buffer.alloc(body.length + 8)
    out.writeUInt32BE(data.length, 0)
    body.copy(out, 4)
    out.writeUInt32BE(crc32(body), body.length + 4)
    return out
  }
  const header = Buffer.alloc(13)
  header.writeUInt32BE(size, 0)
  header.writeUInt32BE(size, 4)
  header[8] = 8 // bit depth
  header[9] = 2 // colour type: RGB
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: size }, () => rgb).flat())])
  const pixels = deflateSync(Buffer.concat(Array.from({ length: size }, () => row)))
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', pixels),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

/** A text field by its accessible name (labels carry a hidden "required" asterisk). */
export const field = (scope: Page | Locator, name: string) =>
  scope.getByRole('textbox', { name, exact: true })

/** The toasts: Mantine's notification container at the bottom right, where the app shows them. */
export const notifications = (page: Page) =>
  page.locator('.mantine-Notifications-root[data-position="bottom-right"]')

/** A toast with this text, inside the notification region. */
export const toast = (page: Page, text: string | RegExp) =>
  notifications(page).getByRole('alert').filter({ hasText: text })

/** Signs in through the login form and waits to leave the page. */
export async function logInThroughForm(page: Page, userName: string, password: string, from?: string) {
  await page.goto(from ? `/account/login?from=${encodeURIComponent(from)}` : '/account/login')
  await field(page, 'User name or e-mail').fill(userName)
  await field(page, 'Password').fill(password)
  await page.getByRole('button', { name: 'Log in' }).click()
  await expect(page).not.toHaveURL(/\/account\/login/)
}

/** Fills the registration form (not submitted). */
export async function fillRegistration(
  page: Page,
  user: { email: string; userName: string; password: string },
) {
  await field(page, 'E-mail').fill(user.email)
  await field(page, 'User name').fill(user.userName)
  await field(page, 'Password').fill(user.password)
  await field(page, 'Retype the password').fill(user.password)
}

/** Base64 of UTF-8 text, as the server writes it in mailed links. */
export const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64')
