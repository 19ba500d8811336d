/**
 * How the harness hands its addresses to the tests: global setup sets these variables in the
 * runner process, and Playwright's workers inherit them (and re-read the config with them).
 */
export const ENV = {
  baseUrl: 'PENNANT_E2E_BASE_URL',
  mailboxUrl: 'PENNANT_E2E_MAILBOX_URL',
  adminPassword: 'PENNANT_E2E_ADMIN_PASSWORD',
  smtpPort: 'PENNANT_E2E_SMTP_PORT',
} as const

export interface HarnessEnv {
  /** The server, serving both the API and the built web client, e.g. `http://127.0.0.1:41234`. */
  baseUrl: string
  /** The HTTP view of the SMTP listener's inbox (see `mail-server.ts`). */
  mailboxUrl: string
  /** Password of the bootstrap `Admin` user. */
  adminPassword: string
}

/** The harness's addresses; throws when the tests run without the global setup. */
export function harnessEnv(): HarnessEnv {
  const read = (key: string) => {
    const value = process.env[key]
    if (!value)
      throw new Error(`${key} is not set: run the tests through playwright.config.ts (global setup)`)
    return value
  }
  return {
    baseUrl: read(ENV.baseUrl),
    mailboxUrl: read(ENV.mailboxUrl),
    adminPassword: read(ENV.adminPassword),
  }
}
