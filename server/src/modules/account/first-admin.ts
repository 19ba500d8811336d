import { readFile, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'

/**
 * The generated password of the first administrator, kept in `DATA_DIR/first-admin.txt` (only
 * this user may read it) until it is changed: a password printed once is gone as soon as the
 * terminal scrolls or a browser opens the site.
 */
export function firstAdminFile(dataDir: string) {
  const file = path.join(dataDir, 'first-admin.txt')
  const idLine = (userId: string) => `user id: ${userId}`
  return {
    path: file,

    async write(admin: { id: string; userName: string; password: string }): Promise<void> {
      // A new file, so the mode applies (writeFile keeps an existing file's mode).
      await rm(file, { force: true })
      const text = [
        `Pennant's first administrator, created ${new Date().toISOString()}`,
        '',
        `  user name: ${admin.userName}`,
        `  password:  ${admin.password}`,
        '',
        'Sign in and choose your own password: this file is removed when the password changes.',
        idLine(admin.id),
        '',
      ].join('\n')
      await writeFile(file, text, { mode: 0o600, flag: 'wx' })
    },

    /** Called on every password change: removes the file when it holds this user's password. */
    async forget(userId: string): Promise<void> {
      const text = await readFile(file, 'utf8').catch(() => '')
      if (text.split('\n').includes(idLine(userId))) await rm(file, { force: true })
    },
  }
}
export type FirstAdminFile = ReturnType<typeof firstAdminFile>

/** The framed block a start that created the first admin prints last, after "ready". */
export function firstAdminBanner(
  admin: { userName: string; password: string },
  loginUrl: string,
  file: string,
) {
  const lines = [
    'The first administrator account was created. Sign in at',
    `  ${loginUrl}`,
    `  user name: ${admin.userName}`,
    `  password:  ${admin.password}`,
    'You will be asked to choose your own password. Until you do, this one',
    `is also kept in ${file}`,
    '(readable only by this user); the file is removed when the password changes.',
  ]
  const width = Math.max(...lines.map((l) => l.length))
  const rule = '─'.repeat(width + 2)
  return `\n  ┌${rule}┐\n${lines.map((l) => `  │ ${l.padEnd(width)} │\n`).join('')}  └${rule}┘\n\n`
}
