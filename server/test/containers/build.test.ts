import { execFileSync } from 'node:child_process'
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { adminAgent, registeredUser, setRole, uniqueName } from '../factories.ts'
import type { Agent } from '../helpers/agent.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'
import { closeContainerApp, docker } from './helpers.ts'

let t: TestApp
let admin: Agent
const network = `pn-t-${uniqueName('b')}`
const tags: string[] = []
beforeAll(async () => {
  t = await createTestApp({ CONTAINER_BACKEND: 'docker', CONTAINER_NETWORK: network })
  admin = await adminAgent(t.app)
}, 120_000)
afterAll(async () => {
  for (const tag of tags) {
    try {
      docker('image', 'rm', '-f', tag)
    } catch {}
  }
  await closeContainerApp(t, network)
}, 60_000)

/** A build context as `pennant --build` sends it: a tar of a folder holding `files`. */
function context(files: Record<string, string>, withBusybox = true): Buffer {
  const dir = mkdtempSync(path.join(tmpdir(), 'pennant-ctx-'))
  try {
    if (withBusybox) copyFileSync('/bin/busybox', path.join(dir, 'busybox'))
    for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text)
    return execFileSync('tar', ['-cf', '-', '-C', dir, '.'], { maxBuffer: 64 << 20 })
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

const build = (agent: Agent, tag: string, bytes: Buffer) =>
  agent.upload('POST', `/api/edit/images?tag=${encodeURIComponent(tag)}`, {
    bytes,
    name: 'context.tar',
    type: 'application/x-tar',
  })

describe('building a challenge image on the server’s engine', () => {
  it('builds from a Dockerfile and the engine then has the image, with what the Dockerfile set', async () => {
    const tag = `pennant-test-built:${uniqueName('t').toLowerCase()}`
    tags.push(tag)
    const res = await build(
      admin,
      tag,
      context({
        Dockerfile: 'FROM scratch\nCOPY busybox /bin/busybox\nEXPOSE 7000\nCMD ["/bin/busybox", "true"]\n',
      }),
    )
    expect(res.statusCode, res.body).toBe(200)
    const body = res.json()
    expect(body.tag).toBe(tag)
    expect(body.id).toMatch(/^sha256:[0-9a-f]{64}$/)
    expect(body.log.join('\n')).toMatch(/COPY busybox/)
    expect(docker('image', 'inspect', '--format', '{{.Id}} {{json .Config.ExposedPorts}}', tag)).toBe(
      `${body.id} {"7000/tcp":{}}`,
    )
  })

  it('answers a failed build with 400 and the engine’s own words, and keeps no image', async () => {
    const tag = `pennant-test-broken:${uniqueName('t').toLowerCase()}`
    tags.push(tag)
    const res = await build(admin, tag, context({ Dockerfile: 'FROM scratch\nCOPY not-there /x\n' }, false))
    expect(res.statusCode).toBe(400)
    expect(res.json()).toEqual({
      status: 400,
      title: expect.stringMatching(/^Building .* failed: .*not-there/s),
    })
    expect(() => docker('image', 'inspect', tag)).toThrow()

    const noDockerfile = await build(admin, tag, context({ 'README.md': 'no Dockerfile here' }, false))
    expect(noDockerfile.statusCode).toBe(400)
    expect(noDockerfile.json().title).toMatch(/Dockerfile/i)
  })

  it('refuses bad tags and missing contexts, and keeps the route to admins', async () => {
    for (const tag of ['', 'UPPER:case', 'a b', 'x:'.padEnd(300, 'y'), '../etc']) {
      const res = await build(admin, tag, context({ Dockerfile: 'FROM scratch\n' }, false))
      expect(res.statusCode, tag).toBe(400)
      expect(res.json().status).toBe(400)
    }
    const noFile = await admin.post('/api/edit/images?tag=pennant-test-x:1', {})
    expect(noFile.statusCode).toBe(400)

    const user = await registeredUser(t.app)
    const monitor = await registeredUser(t.app)
    await setRole(t.app, monitor.userName, 2)
    const bytes = context({ Dockerfile: 'FROM scratch\n' }, false)
    expect((await build(user.agent, 'pennant-test-x:1', bytes)).statusCode).toBe(403)
    expect((await build(monitor.agent, 'pennant-test-x:1', bytes)).statusCode).toBe(403)
    expect(() => docker('image', 'inspect', 'pennant-test-x:1')).toThrow()
  })
})
