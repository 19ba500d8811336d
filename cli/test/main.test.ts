import { execFileSync, spawnSync } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createGame } from '../../server/test/factories.ts'
import type { Agent } from '../../server/test/helpers/agent.ts'
import { createTestApp, type TestApp } from '../../server/test/helpers/app.ts'
import { resolveAttachment } from '../src/attachment.ts'
import { EXIT } from '../src/main.ts'
import { toUpdateModel } from '../src/plan.ts'
import { readTree } from '../src/tree.ts'
import { listeningAsAdmin, runCli as run } from './factories.ts'

const FIXTURES = join(import.meta.dirname, 'fixtures')

/** Runs the command line and collects what it prints. */
const ENV = { PENNANT_URL: 'http://127.0.0.1:9', PENNANT_TOKEN: 'x' }

describe('pennant challenges plan: arguments and files', () => {
  it('runs as the `pennant` command (bin/pennant.mjs through tsx)', () => {
    const bin = join(import.meta.dirname, '../bin/pennant.mjs')
    expect(execFileSync(process.execPath, [bin, '--help'], { encoding: 'utf8' })).toContain(
      'pennant challenges sync <folder> --game <id>',
    )
    const bad = spawnSync(process.execPath, [bin, 'challenges', 'plan', FIXTURES, '--game', '1'], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH },
    })
    expect(bad.status).toBe(EXIT.failed)
    expect(bad.stderr).toContain('set PENNANT_URL')
  })

  it('prints the usage and fails without arguments', async () => {
    const r = await run([], {})
    expect(r.code).toBe(EXIT.failed)
    expect(r.out).toContain('usage: pennant challenges plan <folder> --game <id>')
  })

  it('refuses a bad game id and a missing folder', async () => {
    expect((await run(['challenges', 'plan', FIXTURES, '--game', 'abc'], ENV)).err).toContain(
      '--game needs a game id',
    )
    expect((await run(['challenges', 'plan', join(FIXTURES, 'nope'), '--game', '1'], ENV)).err).toContain(
      'is not a folder',
    )
  })

  it('asks for PENNANT_URL and PENNANT_TOKEN', async () => {
    const a = await run(['challenges', 'plan', FIXTURES, '--game', '1'], { PENNANT_TOKEN: 'x' })
    expect(a).toMatchObject({ code: EXIT.failed, err: expect.stringContaining('set PENNANT_URL') })
    const b = await run(['challenges', 'plan', FIXTURES, '--game', '1'], { PENNANT_URL: 'http://x' })
    expect(b).toMatchObject({ code: EXIT.failed, err: expect.stringContaining('set PENNANT_TOKEN') })
  })

  it('stops on file errors before asking the server, printing file:line: field', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pennant-cli-main-'))
    writeFileSync(
      join(dir, 'challenge.yml'),
      'name: a\ncategory: web\nflags:\n  - {type: regex, content: ".*"}\n',
    )
    const r = await run(['challenges', 'plan', dir, '--game', '1'], ENV)
    expect(r.code).toBe(EXIT.failed)
    expect(r.err).toContain('challenge.yml:4: error: flags[0].type: Pennant matches flags exactly')
    expect(r.err).not.toContain('cannot reach')
  })

  it('says when the server cannot be reached', async () => {
    const r = await run(['challenges', 'plan', join(FIXTURES, 'gzcli/tree/Misc'), '--game', '1'], ENV)
    expect(r).toMatchObject({
      code: EXIT.failed,
      err: expect.stringContaining('cannot reach http://127.0.0.1:9'),
    })
  })
})

describe('pennant challenges plan against a running server', () => {
  let t: TestApp
  let admin: Agent
  let url: string
  let asAdmin: typeof fetch

  beforeAll(async () => {
    t = await createTestApp()
    ;({ admin, url, asAdmin } = await listeningAsAdmin(t))
  })
  afterAll(() => t?.close())

  /** What a sync will do, done by hand through the edit API: create, update, flags, handout. */
  async function applyByHand(game: number, root: string) {
    for (const spec of readTree(root).specs) {
      const d = { ...spec, attachment: resolveAttachment(spec.attachment) }
      const base = `/api/edit/games/${game}/challenges`
      const created = await admin.post(base, { title: d.title, category: d.category, type: d.type })
      expect(created.statusCode).toBe(200)
      const id = created.json().id as number
      if (d.flags.length)
        expect(
          (
            await admin.post(
              `${base}/${id}/flags`,
              d.flags.map((flag) => ({ flag })),
            )
          ).statusCode,
        ).toBe(200)
      expect((await admin.put(`${base}/${id}`, toUpdateModel(d))).statusCode).toBe(200)
      if (d.attachment.type === 'Local') {
        const file = {
          bytes: Buffer.from(d.attachment.bytes),
          name: d.attachment.name,
          type: 'application/zip',
        }
        const up = await admin.upload('POST', '/api/assets', file, 'files')
        expect(up.json()[0].hash).toBe(d.attachment.hash)
        const att = await admin.post(`${base}/${id}/attachment`, {
          attachmentType: 'Local',
          fileHash: d.attachment.hash,
        })
        expect(att.statusCode).toBe(200)
      }
    }
  }

  it('plans to create into an empty game (exit 2), and nothing once the game holds the files (exit 0)', async () => {
    const game = await createGame(admin)
    const root = join(FIXTURES, 'gzcli/tree/Misc')
    const env = { PENNANT_URL: url, PENNANT_TOKEN: 'unused' }
    const first = await run(['challenges', 'plan', root, '--game', String(game.id)], env, asAdmin)
    expect(first.code).toBe(EXIT.work)
    expect(first.out).toContain('+ create  static-attachment  "static-attachment" (StaticAttachment, Misc)')

    await applyByHand(game.id, root)
    const second = await run(['challenges', 'plan', root, '--game', String(game.id)], env, asAdmin)
    expect(second.out).toContain('0 to create, 0 to change, 1 unchanged, 0 only on the server')
    expect(second.code).toBe(EXIT.ok)
  })

  it('shows a dynamic container edited on the server as a change, field by field', async () => {
    const game = await createGame(admin)
    const root = join(FIXTURES, 'gzcli/testdata/Pwn')
    await applyByHand(game.id, root)
    const [c] = (await admin.get(`/api/edit/games/${game.id}/challenges`)).json()
    await admin.put(`/api/edit/games/${game.id}/challenges/${c.id}`, { memoryLimit: 1024, cpuCount: 4 })
    const r = await run(
      ['challenges', 'plan', root, '--game', String(game.id)],
      { PENNANT_URL: url, PENNANT_TOKEN: 'x' },
      asAdmin,
    )
    expect(r.code).toBe(EXIT.work)
    expect(r.out).toContain(`~ change  dynamic-container-challenge  #${c.id} "Dynamic Container Challenge"`)
    expect(r.out).toContain('      memoryLimit: 1024 → 512')
    expect(r.out).toContain('      cpuCount: 4 → 2')
    expect(r.out.split('\n').filter((l) => l.startsWith('      '))).toHaveLength(2)
  })

  it('reports a missing game as an error (exit 1)', async () => {
    const r = await run(
      ['challenges', 'plan', join(FIXTURES, 'gzcli/tree/Misc'), '--game', '999999'],
      { PENNANT_URL: url, PENNANT_TOKEN: 'x' },
      asAdmin,
    )
    expect(r.code).toBe(EXIT.failed)
    expect(r.err).toContain('HTTP 404')
  })

  it('works with an admin API token alone (no cookie), and says when a token is refused', async () => {
    const game = await createGame(admin)
    const token = (await admin.post('/api/tokens', { name: 'cli' })).json().token as string
    const argv = ['challenges', 'plan', join(FIXTURES, 'gzcli/tree/Misc'), '--game', String(game.id)]
    const env = { PENNANT_URL: url, PENNANT_TOKEN: token }
    const synced = await run(['challenges', 'sync', ...argv.slice(2)], env)
    expect(synced.out).toContain('1 applied, 0 failed')
    expect(synced.code).toBe(EXIT.ok)
    const again = await run(argv, env)
    expect(again.out).toContain('0 to create, 0 to change, 1 unchanged')
    expect(again.code).toBe(EXIT.ok)
    const bad = await run(argv, { PENNANT_URL: url, PENNANT_TOKEN: 'not-a-token' })
    expect(bad.code).toBe(EXIT.failed)
    expect(bad.err).toMatch(/HTTP 401.*is PENNANT_TOKEN an admin token this server accepts\?/)
  })
})
