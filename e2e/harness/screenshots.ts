import { mkdirSync } from 'node:fs'
import path from 'node:path'
import type { Page } from '@playwright/test'
import { SCREENSHOTS_DIR } from './paths.ts'

export type ColorScheme = 'dark' | 'light'

/** Where Mantine keeps the chosen colour scheme (read on load). */
const SCHEME_KEY = 'mantine-color-scheme-value'

export const VIEWPORTS = {
  desktop: { width: 1440, height: 900 },
  phone: { width: 390, height: 844 },
} as const

/** The scheme the page shows (Mantine's attribute on `<html>`). */
export async function currentScheme(page: Page): Promise<ColorScheme> {
  const value = await page.evaluate(() => document.documentElement.getAttribute('data-mantine-color-scheme'))
  return value === 'light' ? 'light' : 'dark'
}

/** Waits until fonts, images and pending requests have settled. */
async function settle(page: Page) {
  await page.waitForLoadState('networkidle').catch(() => {})
  await page.evaluate(() => document.fonts.ready.then(() => undefined))
}

/**
 * Saves a full-page PNG of the page as it is to
 * `e2e/.artifacts/screenshots/<name>-<width>-<scheme>.png`; returns the path.
 */
export async function screenshot(page: Page, name: string): Promise<string> {
  const width = page.viewportSize()?.width ?? 0
  const file = path.join(SCREENSHOTS_DIR, `${name}-${width}-${await currentScheme(page)}.png`)
  mkdirSync(SCREENSHOTS_DIR, { recursive: true })
  await settle(page)
  await page.screenshot({ path: file, fullPage: true, animations: 'disabled', caret: 'hide' })
  return file
}

/** Switches the colour scheme the way a returning visitor would have it: stored, then reloaded. */
export async function setColorScheme(page: Page, scheme: ColorScheme) {
  await page.evaluate(([key, value]) => localStorage.setItem(key, value), [SCHEME_KEY, scheme] as const)
  await page.emulateMedia({ colorScheme: scheme })
  await page.reload()
  await page.locator(`html[data-mantine-color-scheme="${scheme}"]`).waitFor({ state: 'attached' })
}

/**
 * Whether `shootAll` takes every width and scheme (`PENNANT_E2E_SCREENSHOTS=all`, for a look at
 * the design) or one shot of the page as the test left it (the default, as `npm test` runs: the
 * full set reloads each screen four times, minutes of a run that nobody looks at, while the a11y
 * spec already checks every screen at both widths in both schemes).
 */
export const ALL_SCREENSHOTS = process.env.PENNANT_E2E_SCREENSHOTS === 'all'

/**
 * Screenshots the current page (see `screenshot`); with `PENNANT_E2E_SCREENSHOTS=all`, at
 * 1440×900 and 390×844, each in the dark and the light scheme (four files), reloading the page for
 * each: `open`, when given, brings back what a reload closes (a dialog, an expanded row). Then
 * the viewport and the stored scheme are put back and the page is reloaded once more (and
 * `open` run again). Returns the paths.
 */
export async function shootAll(page: Page, name: string, open?: () => Promise<unknown>): Promise<string[]> {
  if (!ALL_SCREENSHOTS) return [await screenshot(page, name)]
  const viewport = page.viewportSize()
  const stored = await page.evaluate((key) => localStorage.getItem(key), SCHEME_KEY)
  const files: string[] = []
  for (const scheme of ['dark', 'light'] as const) {
    for (const size of Object.values(VIEWPORTS)) {
      await page.setViewportSize(size)
      await setColorScheme(page, scheme)
      await open?.()
      files.push(await screenshot(page, name))
    }
  }
  if (viewport) await page.setViewportSize(viewport)
  await page.evaluate(
    ([key, value]) => (value === null ? localStorage.removeItem(key) : localStorage.setItem(key, value)),
    [SCHEME_KEY, stored] as const,
  )
  await page.emulateMedia({ colorScheme: null })
  await page.reload()
  await open?.()
  return files
}
