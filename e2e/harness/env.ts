/**
 * How the harness hands its addresses to the tests: global setup sets these variables in the
 * runner process, and Playwright's workers inherit them (and re-read the config with them).
 */
export const ENV = {
  baseUrl: 'PENNANT_E2E_BASE_URL',
  mailboxUrl: 'PENNANT_E2E_MAILBOX_URL',
  adminPassword: 'PENNANT_E2E_ADMIN_PASSWORD',
  smtpPort: 'PENNANT_E2E_SMTP_PORT',
  /** The server's data directory, for a spec that places files the way the server would. */
  dataDir: 'PENNANT_E2E_DATA_DIR',
  /** The run's build of the web client, for a test that starts a server of its own. */
  webDir: 'PENNANT_E2E_WEB_DIR',
  /** The run's build of the server (its `main.js` is what every server of the run starts). */
  serverBuild: 'PENNANT_E2E_SERVER_BUILD',
} as const

export interface HarnessEnv {
  /** The server, serving both the API and the built web client, e.g. `http://127.0.0.1:41234`. */
  baseUrl: string
  /** The HTTP view of the SMTP listener's inbox (see `mail-server.ts`). */
  mailboxUrl: string
  /** Password of the bootstrap `Admin` user. */
  adminPassword: string
  /** The server's `DATA_DIR` (files it keeps on disk, such as traffic captures). */
  dataDir: string
  /** The web client this run built (for a spec that starts a server of its own). */
  webDir: string
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
    dataDir: read(ENV.dataDir),
    webDir: read(ENV.webDir),
  }
}
