import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { zipSync } from 'fflate'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { acceptedPlayer, adminAgent, createGame, registeredUser, setRole } from '../factories.ts'
import type { Agent } from '../helpers/agent.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'

/** The cli's fixtures: real challenge folders from ctfcli and gzcli (see their SOURCES.md). */
const FIXTURES = join(import.meta.dirname, '../../../cli/test/fixtures')

let t: TestApp
let admin: Agent
beforeAll(async () => {
  t = await createTestApp()
  admin = await adminAgent(t.app)
})
afterAll(() => t.close())

/** Zips folders as an organiser would: `prefix/<path inside the folder>`. */
function zipOf(folders: Record<string, string>): Buffer {
  const files: Record<string, Uint8Array> = {}
  for (const [prefix, dir] of Object.entries(folders)) {
    const walk = (d: string) => {
      for (const name of readdirSync(d)) {
        const p = join(d, name)
        if (statSync(p).isDirectory()) walk(p)
        else files[`${prefix}/${relative(dir, p).split('\\').join('/')}`] = readFileSync(p)
      }
    }
    walk(dir)
  }
  return Buffer.from(zipSync(files))
}

const send = (agent: Agent, game: number, zip: Buffer, query = '') =>
  agent.upload(
    'POST',
    `/api/edit/games/${game}/challenges/folder${query}`,
    { bytes: zip, name: 'challenges.zip', type: 'application/zip' },
    'file',
  )

const TREE = () =>
  zipOf({
    'challenges/Misc/static-attachment': join(FIXTURES, 'gzcli/tree/Misc/static-attachment'),
    'challenges/Web/files': join(FIXTURES, 'ctfcli/test-challenge-files'),
    'challenges/Misc/test': join(FIXTURES, 'gzcli/testdata/Misc/test-challenge'),
  })

describe('a challenge folder uploaded as a ZIP (admin screens)', () => {
  it('plans field by field, applies, and a player then sees the challenge; a second upload changes nothing', async () => {
    const game = await createGame(admin)
    const planned = await send(admin, game.id, TREE())
    expect(planned.statusCode, planned.body).toBe(200)
    const p = planned.json()
    expect(p).toMatchObject({ planned: true, hasWork: true, applied: null, log: [] })
    expect(p.items.map((i: { action: string; key: string }) => `${i.action} ${i.key}`)).toEqual([
      'create Misc/static-attachment',
      'create Misc/test',
      'create Web/files',
    ])
    expect(p.items[0]).toMatchObject({
      title: 'static-attachment',
      type: 'StaticAttachment',
      category: 'Misc',
    })
    expect(p.text).toContain('3 to create, 0 to change, 0 unchanged, 0 only on the server')
    // Warnings name the file inside the archive.
    expect(p.diagnostics).toContainEqual(
      expect.objectContaining({
        severity: 'warning',
        file: 'challenges/Misc/static-attachment/challenge.yml',
      }),
    )
    expect((await admin.get(`/api/edit/games/${game.id}/challenges`)).json()).toEqual([])

    const applied = (await send(admin, game.id, TREE(), '?apply=true')).json()
    expect(applied).toMatchObject({ applied: 3, failed: 0 })
    expect(applied.log[0]).toMatch(/^created Misc\/static-attachment as #\d+$/)
    const list = (await admin.get(`/api/edit/games/${game.id}/challenges`)).json()
    expect(list.map((c: { sourceKey: string }) => c.sourceKey).sort()).toEqual([
      'Misc/static-attachment',
      'Misc/test',
      'Web/files',
    ])

    const player = await acceptedPlayer(t.app, admin, game.id)
    // The gzcli challenge says `visible: true`; players see it as written.
    const id = list.find((c: { sourceKey: string }) => c.sourceKey === 'Misc/test').id
    const seen = await player.agent.get(`/api/game/${game.id}/challenges/${id}`)
    expect(seen.statusCode, seen.body).toBe(200)
    expect(seen.json()).toMatchObject({ title: 'Test Challenge', content: 'Test Description', score: 100 })

    const again = (await send(admin, game.id, TREE(), '?apply=true')).json()
    expect(again).toMatchObject({ hasWork: false, applied: null })
    expect(again.text).toContain('0 to create, 0 to change, 3 unchanged')
  })

  it('shows file errors with their line and plans nothing', async () => {
    const game = await createGame(admin)
    const zip = Buffer.from(
      zipSync({
        'bad/challenge.yml': new TextEncoder().encode('name: a\nflags:\n  - {type: regex, content: ".*"}\n'),
      }),
    )
    const res = await send(admin, game.id, zip, '?apply=true')
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toMatchObject({ planned: false, items: [], applied: null })
    expect(res.json().diagnostics).toContainEqual(
      expect.objectContaining({
        severity: 'error',
        file: 'bad/challenge.yml',
        line: 3,
        field: 'flags[0].type',
      }),
    )
  })

  it('refuses what is not a ZIP, paths leaving the folder, missing games, and non-admins', async () => {
    const game = await createGame(admin)
    const notZip = await send(admin, game.id, Buffer.from('hello'))
    expect(notZip.statusCode).toBe(400)
    expect(notZip.json().status).toBe(400)
    const leaving = Buffer.from(zipSync({ '../evil/challenge.yml': new TextEncoder().encode('name: x\n') }))
    expect((await send(admin, game.id, leaving)).statusCode).toBe(400)
    expect((await send(admin, 999999, TREE())).statusCode).toBe(404)
    const monitor = await registeredUser(t.app)
    await setRole(t.app, monitor.userName, 2)
    expect((await send(monitor.agent, game.id, TREE())).statusCode).toBe(403)
  })
})
