import { test as base, type Page } from '@playwright/test'
import { type AccountPolicy, AdminApi } from './api.ts'
import { harnessEnv } from './env.ts'
import type { Mail } from './mail-server.ts'
import { shootAll } from './screenshots.ts'

export { expect } from '@playwright/test'
export { type AccountPolicy, AdminApi, ApiClient, ApiError } from './api.ts'
export { harnessEnv } from './env.ts'
export type { Mail } from './mail-server.ts'
export { ALL_SCREENSHOTS, screenshot, setColorScheme, shootAll, VIEWPORTS } from './screenshots.ts'

export interface MailQuery {
  /** Recipient address (case-insensitive). */
  to: string
  /** A part of the subject, or a pattern it must match. */
  subject?: string | RegExp
  /** How long to wait, in ms (default 10 s). */
  timeout?: number
}

export interface Mailbox {
  /**
   * The oldest message matching the query that this test has not been given yet; waits for it.
   * Each message is handed out once per test, so a second call waits for the next mail.
   */
  waitForMail(query: MailQuery): Promise<Mail>
  /** Everything the SMTP listener has received in this run. */
  all(): Promise<Mail[]>
}

let nameSeq = 0
/** Tells this worker process's names from another's made in the same millisecond. */
const processTag = Math.random().toString(36).slice(2, 4).padEnd(2, '0')
/**
 * A user or team name unique within the run, 3 to 15 characters: up to 6 characters of the
 * prefix, then the time, a per-process tag and a sequence number, in base 36 (lower case).
 */
export function uniqueName(prefix = 'u'): string {
  const stamp = Date.now().toString(36).slice(-5)
  const seq = (nameSeq++ % 1296).toString(36)
  return `${prefix.slice(0, 6)}${stamp}${processTag}${seq}`
}

// `screenshot(page, name)` is exported above rather than given as a fixture: a fixture of that
// name would replace Playwright's own `screenshot` option (the screenshots taken on failure).
interface TestFixtures {
  /** The mails the server sent (through the harness's SMTP listener). */
  mailbox: Mailbox
  /**
   * A JSON client signed in as `Admin`. Account policy changes made through it are undone when
   * the test ends.
   */
  adminApi: AdminApi
  /** See `uniqueName`. */
  uniqueName: (prefix?: string) => string
  /** A screenshot of the page; every width and scheme with `PENNANT_E2E_SCREENSHOTS=all`. */
  shootAll: (page: Page, name: string, open?: () => Promise<unknown>) => Promise<string[]>
}

interface WorkerFixtures {
  /** One admin session per worker, shared by the tests' `adminApi`. */
  adminSession: AdminApi
}

export const test = base.extend<TestFixtures, WorkerFixtures>({
  // The harness decides the address; the config passes it too, this covers any other config.
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern
  baseURL: async ({}, use) => use(harnessEnv().baseUrl),

  adminSession: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern
    async ({}, use) => {
      const { baseUrl, adminPassword } = harnessEnv()
      const admin = await (await AdminApi.create(baseUrl)).signIn('Admin', adminPassword)
      await use(admin)
      await admin.dispose()
    },
    { scope: 'worker' },
  ],

  adminApi: async ({ adminSession }, use) => {
    const api = new AdminApi(adminSession.context)
    let original: AccountPolicy | undefined
    const set = api.setAccountPolicy.bind(api)
    api.setAccountPolicy = async (change) => {
      const before = await set(change)
      original ??= before
      return before
    }
    await use(api)
    if (original) await api.put('/api/admin/config', { accountPolicy: original })
  },

  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern
  mailbox: async ({}, use) => {
    const { mailboxUrl } = harnessEnv()
    const taken = new Set<number>()
    const all = async (): Promise<Mail[]> => {
      const res = await fetch(`${mailboxUrl}/messages`)
      if (!res.ok) throw new Error(`mailbox answered ${res.status}`)
      return (await res.json()) as Mail[]
    }
    const matches = (mail: Mail, { to, subject }: MailQuery) =>
      mail.to.includes(to.toLowerCase()) &&
      (subject === undefined ||
        (typeof subject === 'string' ? mail.subject.includes(subject) : subject.test(mail.subject)))

    await use({
      all,
      async waitForMail(query) {
        const deadline = Date.now() + (query.timeout ?? 10_000)
        for (;;) {
          const inbox = await all()
          const found = inbox.find((m) => !taken.has(m.id) && matches(m, query))
          if (found) {
            taken.add(found.id)
            return found
          }
          if (Date.now() > deadline) {
            const seen = inbox
              .filter((m) => m.to.includes(query.to.toLowerCase()))
              .map((m) => `  #${m.id} "${m.subject}"${taken.has(m.id) ? ' (already taken)' : ''}`)
            throw new Error(
              `no mail to ${query.to}${query.subject ? ` with subject ${query.subject}` : ''} ` +
                `within ${query.timeout ?? 10_000} ms; mails to that address:\n${seen.join('\n') || '  none'}`,
            )
          }
          // real wait: polling the SMTP listener between looks
          await new Promise((resolve) => setTimeout(resolve, 100))
        }
      },
    })
  },

  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern
  uniqueName: async ({}, use) => use(uniqueName),
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern
  shootAll: async ({}, use) => use(shootAll),
})
