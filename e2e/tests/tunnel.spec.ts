import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import path from 'node:path'
import { readEntryEventually } from '../../server/test/helpers/tcp.ts'
import { createTestDatabase } from '../harness/database.ts'
import { AdminApi, ApiClient, expect as baseExpect, harnessEnv, test } from '../harness/fixtures.ts'
import { ARTIFACTS_DIR, REPO_ROOT } from '../harness/paths.ts'
import { startServer } from '../harness/server.ts'

// The platform proxy with the player's local tunnel, end to end in the browser: a server of this
// spec's own runs with CONTAINER_PORT_MAPPING=PlatformProxy; the tunnel command this site serves
// runs as the local daemon (its default API, 127.0.0.1:3307); the challenge dialog gets the
// instance forwarded and shows the local address, which answers with the team's flag; after the
// instance is destroyed the daemon's pool is empty again.

/** Container starts and stops change this host's network interfaces; screens get more time. */
const expect = baseExpect.configure({ timeout: 20_000 })
const DAEMON_API = 'http://127.0.0.1:3307'

test('the challenge dialog forwards a proxied instance through the local tunnel daemon', async ({
  browser,
  adminApi,
  uniqueName,
}) => {
  test.setTimeout(240_000)
  const status = await adminApi.get<{ backend: string }>('/api/ext/containers/status')
  test.skip(status.backend === 'none', 'no Docker engine here (see harness/containers.ts)')

  const database = await createTestDatabase()
  const network = `pennant-e2e-${randomBytes(4).toString('hex')}`
  const password = `E2e-${randomBytes(9).toString('base64url')}`
  let daemon: ChildProcess | null = null
  const server = await startServer({
    logFile: path.join(ARTIFACTS_DIR, 'server-proxy.log'),
    env: {
      ...database.env,
      WEB_DIR: harnessEnv().webDir,
      PENNANT_ADMIN_PASSWORD: password,
      CONTAINER_BACKEND: 'docker',
      CONTAINER_NETWORK: network,
      CONTAINER_PORT_MAPPING: 'PlatformProxy',
    },
  })
  try {
    daemon = spawn(
      process.execPath,
      [path.join(REPO_ROOT, 'server/assets/tunnel.mjs'), '--allow', server.url],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    )
    await new Promise<void>((resolve, reject) => {
      let out = ''
      daemon!.stdout!.on('data', (d: Buffer) => {
        out += d.toString()
        if (out.includes('daemon API on')) resolve()
      })
      daemon!.once('exit', (code) => reject(new Error(`the tunnel exited (${code}): ${out}`)))
    })
    const pool = async () =>
      (await (await fetch(`${DAEMON_API}/pool`, { headers: { origin: server.url } })).json()) as {
        remote: string
        local: string
      }[]

    const admin = await (await AdminApi.create(server.url)).signIn('Admin', password)
    const now = Date.now()
    const game = await admin.post<Record<string, unknown> & { id: number }>('/api/edit/games', {
      title: `Tunnel ${uniqueName('g')}`,
      start: now - 10 * 60_000,
      end: now + 60 * 60_000,
    })
    await admin.put(`/api/edit/games/${game.id}`, { ...game, acceptWithoutReview: true })
    const title = `Far ${uniqueName('c')}`
    const c = await admin.post<{ id: number }>(`/api/edit/games/${game.id}/challenges`, {
      title,
      category: 'Pwn',
      type: 'DynamicContainer',
    })
    await admin.put(`/api/edit/games/${game.id}/challenges/${c.id}`, {
      isEnabled: true,
      content: `Reach **${title}**.`,
      containerImage: 'pennant-test-challenge:2',
      containerExposePort: 8080,
      memoryLimit: 64,
    })

    const context = await browser.newContext({ baseURL: server.url })
    const player = new ApiClient(context.request)
    const user = uniqueName('far')
    await player.post('/api/account/register', {
      userName: user,
      password: 'Passw0rd!',
      email: `${user}@e2e.test`,
    })
    const team = await player.post<{ id: number }>('/api/team', { name: `Team ${user}`, bio: 'e2e' })
    await player.post(`/api/game/${game.id}`, { teamId: team.id })

    const page = await context.newPage()
    await page.goto(`/games/${game.id}/challenges`)
    // The navbar tells the daemon's state (the site is allowed: usable at once).
    await page.getByRole('button', { name: 'Local tunnel: Connected' }).click()
    const panel = page.getByRole('group', { name: 'Local tunnel' })
    await expect(panel).toContainText('Daemon API: http://127.0.0.1:3307')
    await expect(panel.getByRole('switch', { name: /other machines on my network/ })).not.toBeChecked()
    await page.keyboard.press('Escape')
    await page.getByRole('button', { name: new RegExp(title) }).click()
    const instance = page.getByRole('dialog', { name: title }).getByRole('region', { name: 'Instance' })
    await instance.getByRole('button', { name: 'Start instance' }).click()

    // The daemon forwards it: the dialog shows the local address, which reaches the container.
    const entry = instance.getByRole('textbox', { name: 'Entry' })
    await expect(entry).toHaveValue(/^127\.0\.0\.1:\d+$/, { timeout: 30_000 })
    await expect(instance).toContainText('Forwarded by your local tunnel')
    const local = await entry.inputValue()
    const answer = await readEntryEventually(local, 20_000)
    expect(answer).toMatch(new RegExp(`^flag=flag\\{\\S+\\} team=${team.id} `))
    const [forwarded] = await pool()
    expect(forwarded?.local).toBe(local)
    expect(forwarded?.remote).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/api\/proxy\/[0-9a-f-]{36}$/)

    // The original address is one click away.
    await instance.getByRole('button', { name: 'Show the WebSocket address' }).click()
    await expect(entry).toHaveValue(forwarded!.remote)
    await instance.getByRole('button', { name: 'Show the local address' }).click()
    await expect(entry).toHaveValue(local)

    // Destroyed (once the server's 10-second turn is over: its clock is moved past it), and its
    // local port leaves the pool.
    await admin.advanceClock(10_000)
    await instance.getByRole('button', { name: 'Destroy' }).click()
    await page
      .getByRole('dialog', { name: 'Destroy the instance?' })
      .getByRole('button', { name: 'Destroy' })
      .click()
    await expect(instance.getByRole('button', { name: 'Start instance' })).toBeVisible()
    await expect.poll(pool, { timeout: 20_000 }).toEqual([])
  } finally {
    daemon?.kill()
    await server.stop()
    for (const name of [network, `${network}-noegress`]) {
      try {
        const ids = execFileSync('docker', ['ps', '-aq', '--filter', `network=${name}`], { encoding: 'utf8' })
          .split('\n')
          .filter(Boolean)
        if (ids.length) execFileSync('docker', ['rm', '-f', ...ids])
        execFileSync('docker', ['network', 'rm', name], { stdio: 'ignore' })
      } catch {
        // never created
      }
    }
    await database.drop()
  }
})
