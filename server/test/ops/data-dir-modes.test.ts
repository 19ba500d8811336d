import { type ChildProcess, spawn } from 'node:child_process'
import { chmod, lstat, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { serverDir } from '../../src/paths.ts'
import { listeningPort } from '../helpers/process.ts'

/** Every entry under `dir` whose mode lets group or others in, with its mode. */
async function openToOthers(dir: string): Promise<string[]> {
  const found: string[] = []
  const walk = async (p: string) => {
    const info = await lstat(p)
    if (info.isSymbolicLink()) return
    if (info.mode & 0o077) found.push(`${path.relative(dir, p) || '.'} ${(info.mode & 0o777).toString(8)}`)
    if (info.isDirectory()) for (const name of await readdir(p)) await walk(path.join(p, name))
  }
  await walk(dir)
  return found
}

// `npm start` on the embedded database (PGlite), started under the most permissive umask, over
// a DATA_DIR an earlier run left open to everyone.
describe('DATA_DIR', () => {
  let dataDir: string
  let child: ChildProcess | undefined
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'pennant-modes-'))
    await mkdir(path.join(dataDir, 'files', 'uploads'), { recursive: true, mode: 0o777 })
    await writeFile(path.join(dataDir, 'files', 'uploads', 'old.bin'), 'x', { mode: 0o666 })
    await chmod(path.join(dataDir, 'files', 'uploads', 'old.bin'), 0o666)
    await chmod(dataDir, 0o777)
  })
  afterAll(async () => {
    child?.kill('SIGKILL')
    await rm(dataDir, { recursive: true, force: true })
  })

  it('is readable and writable by the server’s user only, database and uploads included', {
    timeout: 120_000,
  }, async () => {
    expect((await openToOthers(dataDir)).length).toBeGreaterThan(0)
    const env = {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      PENNANT_ADMIN_PASSWORD: 'Modes-Adm1n',
      CONTAINER_BACKEND: 'none',
      LOG_LEVEL: 'info',
      WEB_DIR: path.join(dataDir, 'no-web-client'),
    }
    child = spawn('sh', ['-c', 'umask 000 && exec "$0" --import tsx src/main.ts', process.execPath], {
      cwd: serverDir,
      env,
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    const base = `http://127.0.0.1:${await listeningPort(child)}`
    // An admin uploads a file: it lands under DATA_DIR too.
    const login = await fetch(`${base}/api/account/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ userName: 'Admin', password: 'Modes-Adm1n' }),
    })
    expect(login.status).toBe(200)
    const cookies = login.headers.getSetCookie().map((c) => c.split(';')[0]!)
    const xsrf = cookies.find((c) => c.startsWith('XSRF-TOKEN='))!.slice('XSRF-TOKEN='.length)
    const form = new FormData()
    form.append('files', new Blob(['uploaded bytes']), 'note.txt')
    const upload = await fetch(`${base}/api/assets`, {
      method: 'POST',
      headers: { cookie: cookies.join('; '), 'x-xsrf-token': xsrf },
      body: form,
    })
    expect(upload.status, await upload.clone().text()).toBe(200)
    expect(await openToOthers(dataDir)).toEqual([])
    expect(((await lstat(path.join(dataDir, 'db'))).mode & 0o777).toString(8)).toBe('700')
  })
})
