import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { serverDir } from '../../src/paths.ts'

const run = promisify(execFile)

/** The server's log lines as they come, and a way to await the first one that matches. */
function watchLog(child: ChildProcess) {
  let seen = ''
  const waiters: { pattern: RegExp; resolve: (m: RegExpMatchArray) => void }[] = []
  child.stdout!.on('data', (chunk: Buffer) => {
    seen += chunk.toString()
    for (const w of [...waiters]) {
      const m = seen.match(w.pattern)
      if (m) {
        waiters.splice(waiters.indexOf(w), 1)
        w.resolve(m)
      }
    }
  })
  return {
    text: () => seen,
    next: (pattern: RegExp) =>
      new Promise<RegExpMatchArray>((resolve, reject) => {
        const m = seen.match(pattern)
        if (m) return resolve(m)
        waiters.push({ pattern, resolve })
        child.once('exit', (code) => reject(new Error(`server exited (${code}): ${seen.slice(-2000)}`)))
      }),
  }
}

// The rehearsal's fault: the built server (as `npm start` runs it) on PGlite, its database thread
// killed by SIGUSR2 under requests. It must restart the thread by itself and answer right again.
describe('SIGUSR2 with PENNANT_FAULT_INJECTION=1', () => {
  let dataDir: string
  let child: ChildProcess | undefined
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'pennant-sigusr2-'))
  })
  afterAll(async () => {
    child?.kill('SIGKILL')
    await rm(dataDir, { recursive: true, force: true })
  })

  it('kills the PGlite thread; requests get 200 or 503, never a wrong answer, and 200 after the restart', {
    timeout: 180_000,
  }, async () => {
    await run(process.execPath, [path.join(serverDir, 'scripts/build.mjs'), '--if-stale'], { cwd: serverDir })
    child = spawn(process.execPath, [path.join(serverDir, 'dist/main.js')], {
      env: {
        ...process.env,
        PORT: '0',
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        DATABASE_URL: '',
        PENNANT_ADMIN_PASSWORD: 'Fault-Adm1n',
        PENNANT_FAULT_INJECTION: '1',
        CONTAINER_BACKEND: 'none',
        LOG_LEVEL: 'info',
        WEB_DIR: path.join(dataDir, 'no-web-client'),
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    const log = watchLog(child)
    const port = Number((await log.next(/Server listening at http:\/\/127\.0\.0\.1:(\d+)/))[1])
    await log.next(/fault injection is on/)
    const base = `http://127.0.0.1:${port}`
    // A signed-in player's own profile: a wrong answer would show as another name, or a 500.
    const login = async () => {
      const res = await fetch(`${base}/api/account/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ userName: 'Admin', password: 'Fault-Adm1n' }),
      })
      return {
        status: res.status,
        cookie: res.headers
          .getSetCookie()
          .map((c) => c.split(';')[0])
          .join('; '),
      }
    }
    const first = await login()
    expect(first.status).toBe(200)
    const profile = async () => {
      const res = await fetch(`${base}/api/account/profile`, { headers: { cookie: first.cookie } })
      const body = (await res.json()) as { userName?: string; status?: number }
      return res.status === 200 ? `200 ${body.userName}` : `${res.status} ${body.status}`
    }
    expect(await profile()).toBe('200 Admin')

    const restarted = log.next(/the PGlite thread was restarted and serves again/)
    let done = false
    void restarted.then(() => {
      done = true
    })
    const seen = new Set<string>()
    const load = async () => {
      while (!done) {
        seen.add(await profile())
        seen.add(`login ${(await login()).status}`)
      }
    }
    const players = [load(), load(), load()]
    child.kill('SIGUSR2')
    await restarted
    await Promise.all(players)
    for (const answer of seen) expect(answer).toMatch(/^(200 Admin|503 503|login (200|503))$/)
    expect(log.text()).toContain('the PGlite thread was lost; restarting it on the same files')
    // After the restart: served, and right.
    expect(await profile()).toBe('200 Admin')
    expect((await login()).status).toBe(200)
    expect(child.exitCode).toBe(null)
  })
})
