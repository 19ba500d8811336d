import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { closeContainerApp, docker } from '../../server/test/containers/helpers.ts'
import { createGame, uniqueName } from '../../server/test/factories.ts'
import type { Agent } from '../../server/test/helpers/agent.ts'
import { createTestApp, type TestApp } from '../../server/test/helpers/app.ts'
import { EXIT } from '../src/main.ts'
import { listeningAsAdmin, runCli } from './factories.ts'

/** `pennant challenges sync --build` against a server on the real Docker engine. */
let t: TestApp
let admin: Agent
let url: string
let token: string
const network = `pn-t-${uniqueName('c')}`
const tag = `pennant-test-cli-built:${uniqueName('t').toLowerCase()}`
const dirs: string[] = []

beforeAll(async () => {
  t = await createTestApp({ CONTAINER_BACKEND: 'docker', CONTAINER_NETWORK: network })
  ;({ admin, url } = await listeningAsAdmin(t))
  token = (await admin.post('/api/tokens', { name: 'cli build' })).json().token
}, 120_000)
afterAll(async () => {
  try {
    docker('image', 'rm', '-f', tag)
  } catch {}
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
  await closeContainerApp(t, network)
}, 60_000)

/** A one-challenge repository: `Pwn/echo/` with a gzcli challenge.yml and a Dockerfile. */
function repository(dockerfile: string): string {
  const root = mkdtempSync(join(tmpdir(), 'pennant-cli-build-'))
  dirs.push(root)
  const dir = join(root, 'Pwn', 'echo')
  mkdirSync(dir, { recursive: true })
  copyFileSync('/bin/busybox', join(dir, 'busybox'))
  writeFileSync(join(dir, 'Dockerfile'), dockerfile)
  writeFileSync(
    join(dir, 'challenge.yml'),
    [
      'name: "Echo"',
      'type: "DynamicContainer"',
      'value: 500',
      'container:',
      '  flagTemplate: "flag{echo_[TEAM_HASH]}"',
      `  containerImage: "${tag}"`,
      '  memoryLimit: 64',
      '  cpuCount: 1',
      '  containerExposePort: 8080',
      '',
    ].join('\n'),
  )
  return root
}

describe('pennant challenges sync --build', () => {
  it('builds the image from the folder’s Dockerfile on the server’s engine, then syncs the challenge', async () => {
    const root = repository(
      'FROM scratch\nCOPY busybox /bin/busybox\nEXPOSE 8080\nCMD ["/bin/busybox", "nc", "-ll", "-p", "8080", "-e", "/bin/busybox", "echo", "hi"]\n',
    )
    const game = await createGame(admin)
    const env = { PENNANT_URL: url, PENNANT_TOKEN: token }
    const r = await runCli(['challenges', 'sync', root, '--game', String(game.id), '--build'], env)
    expect(r.err).toBe('')
    expect(r.out).toMatch(new RegExp(`built ${tag} \\([0-9a-f]{12}\\) from Pwn/echo/Dockerfile`))
    expect(r.out).toContain('1 applied, 0 failed')
    expect(r.code).toBe(EXIT.ok)
    expect(docker('image', 'inspect', '--format', '{{json .Config.ExposedPorts}}', tag)).toBe(
      '{"8080/tcp":{}}',
    )
    const [c] = (await admin.get(`/api/edit/games/${game.id}/challenges`)).json()
    expect((await admin.get(`/api/edit/games/${game.id}/challenges/${c.id}`)).json().containerImage).toBe(tag)
  })

  it('stops before changing anything when the build fails, with the engine’s words', async () => {
    const root = repository('FROM scratch\nCOPY not-in-the-folder /x\n')
    const game = await createGame(admin)
    const env = { PENNANT_URL: url, PENNANT_TOKEN: token }
    const r = await runCli(['challenges', 'sync', root, '--game', String(game.id), '--build'], env)
    expect(r.code).toBe(EXIT.failed)
    expect(r.err).toMatch(/HTTP 400: Building pennant-test-cli-built:.* failed: .*not-in-the-folder/s)
    expect((await admin.get(`/api/edit/games/${game.id}/challenges`)).json()).toEqual([])
  })

  it('goes with sync only', async () => {
    const r = await runCli(['challenges', 'plan', '.', '--game', '1', '--build'], {
      PENNANT_URL: url,
      PENNANT_TOKEN: token,
    })
    expect(r.code).toBe(EXIT.failed)
    expect(r.err).toContain('--build goes with sync')
  })
})
