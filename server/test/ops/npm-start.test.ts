import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { serverDir } from '../../src/paths.ts'
import { exited, listeningPort, printed } from '../helpers/process.ts'

// The root `npm start`, as a newcomer runs it (`scripts/start.mjs`): the builds when stale, then
// the built server in the same process, on the embedded database. Run from another folder, as
// `npm start --prefix <checkout>`: relative paths stay relative to where npm was run.
describe('npm start', () => {
  let cwd: string
  let child: ChildProcess | undefined
  // Signals go to the whole group, as a terminal's Ctrl-C does (npm does not pass them on).
  const signal = (name: NodeJS.Signals) => {
    try {
      if (child?.pid) process.kill(-child.pid, name)
    } catch {
      // The group has ended already.
    }
  }
  afterAll(async () => {
    signal('SIGKILL')
    if (cwd) await rm(cwd, { recursive: true, force: true })
  })

  it('serves the built web client and API, keeps DATA_DIR where npm was run, and stops on Ctrl-C', {
    // Builds the web client first when it is stale (about a minute on a busy 2-core machine).
    timeout: 300_000,
  }, async () => {
    cwd = await mkdtemp(path.join(tmpdir(), 'pennant-npm-start-'))
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: './here',
      PENNANT_ADMIN_PASSWORD: 'Start-Adm1n',
      CONTAINER_BACKEND: 'none',
      LOG_LEVEL: 'info',
    }
    for (const key of ['DATABASE_URL', 'REDIS_URL', 'WEB_DIR', 'PUBLIC_URL', 'LOG_FORMAT', 'INIT_CWD'])
      delete env[key]
    child = spawn('npm', ['start', '--prefix', path.dirname(serverDir)], { cwd, env, detached: true })
    const output = { text: '' }
    const base = `http://127.0.0.1:${await listeningPort(child, output)}`
    await printed(child, output, /Pennant is ready at .*\(database: pglite\)/)

    const page = await fetch(`${base}/`)
    expect(page.status).toBe(200)
    expect(await page.text()).toContain('<div id="root">')
    const config = await fetch(`${base}/api/config`)
    expect(config.status).toBe(200)
    expect(existsSync(path.join(cwd, 'here', 'db'))).toBe(true)

    // Ctrl-C reaches npm and the server alike: it drains, says so, and the process ends.
    signal('SIGINT')
    await exited(child)
    expect(output.text).toMatch(/"msg":"stopped"/)
    await expect(fetch(`${base}/api/config`)).rejects.toThrow()
  })
})
