import path from 'node:path'
import { defineConfig, devices } from '@playwright/test'
import { ENV } from './harness/env.ts'
import { ARTIFACTS_DIR } from './harness/paths.ts'

/**
 * One server for the whole run (started by the global setup), so one worker. The global setup
 * sets PENNANT_E2E_BASE_URL before the workers start; they read this file again and see it.
 */
export default defineConfig({
  testDir: './tests',
  outputDir: path.join(ARTIFACTS_DIR, 'test-results'),
  globalSetup: './harness/global-setup.ts',
  workers: 1,
  fullyParallel: false,
  forbidOnly: process.env.CI === 'true',
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: 'list',
  use: {
    baseURL: process.env[ENV.baseUrl],
    locale: 'en-US',
    timezoneId: 'UTC',
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        viewport: { width: 1440, height: 900 },
        launchOptions: {
          executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
          args: [
            '--headless',
            '--no-sandbox',
            '--disable-gpu',
            '--disable-background-networking',
            '--disable-quic',
            '--no-first-run',
            '--disable-component-update',
            '--disable-sync',
          ],
        },
      },
    },
  ],
})
