import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { unzipSync } from 'fflate'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createGame } from '../../server/test/factories.ts'
import type { Agent } from '../../server/test/helpers/agent.ts'
import { createTestApp, type TestApp } from '../../server/test/helpers/app.ts'
import { linkOf } from '../src/link.ts'
import { EXIT, main } from '../src/main.ts'
import type { ServerChallenge } from '../src/server-model.ts'
import { listeningAsAdmin } from './factories.ts'

const FIXTURES = join(import.meta.dirname, 'fixtures')

let t: TestApp
let admin: Agent
let url: string
let asAdmin: typeof fetch

beforeAll(async () => {
  t = await createTestApp()
  ;({ admin, url, asAdmin } = await listeningAsAdmin(t))
})
afterAll(() => t?.close())

async function run(command: 'plan' | 'sync', root: string, game: number, ...flags: string[]) {
  const out: string[] = []
  const err: string[] = []
  const env = { PENNANT_URL: url, PENNANT_TOKEN: 'by-cookie' }
  const io = { out: (l: string) => out.push(l), err: (l: string) => err.push(l), fetch: asAdmin }
  const code = await main(['challenges', command, root, '--game', String(game), ...flags], env, io)
  return { code, out: out.join('\n'), err: err.join('\n') }
}

/** A tree of three real fixtures, one per kind of handout and type. */
function fixtureTree() {
  const root = mkdtempSync(join(tmpdir(), 'pennant-cli-sync-'))
  cpSync(join(FIXTURES, 'gzcli/tree/Misc/static-attachment'), join(root, 'Misc/static-attachment'), {
    recursive: true,
  })
  cpSync(join(FIXTURES, 'gzcli/testdata/Pwn/dynamic-container-challenge'), join(root, 'Pwn/box'), {
    recursive: true,
  })
  cpSync(join(FIXTURES, 'ctfcli/test-challenge-files'), join(root, 'ctfcli/files'), { recursive: true })
  return root
}

/** The game's challenges in edit detail, as the server answers them. */
type Detail = ServerChallenge & { attachment: { type: string; url: string } | null }
const details = async (game: number) => {
  const list = (await admin.get(`/api/edit/games/${game}/challenges`)).json() as { id: number }[]
  const out: Detail[] = []
  for (const c of list) out.push((await admin.get(`/api/edit/games/${game}/challenges/${c.id}`)).json())
  return out
}

describe('pennant challenges sync', () => {
  it('creates a tree in an empty game, after which the plan has nothing to do', async () => {
    const game = await createGame(admin)
    const root = fixtureTree()
    const first = await run('sync', root, game.id)
    expect(first.out).toContain('3 applied, 0 failed')
    expect(first.code).toBe(EXIT.ok)

    const server = await details(game.id)
    const byKey = new Map(server.map((c) => [linkOf(c), c]))
    // The tie lives in the source key field; descriptions stay as written.
    expect(server.map((c) => c.sourceKey).sort()).toEqual([
      'Misc/static-attachment',
      'Pwn/box',
      'ctfcli/files',
    ])
    expect(server.filter((c) => c.content.includes('pennant:key'))).toEqual([])
    expect([...byKey.keys()].sort()).toEqual(['Misc/static-attachment', 'Pwn/box', 'ctfcli/files'])
    expect(byKey.get('Misc/static-attachment')).toMatchObject({
      title: 'static-attachment',
      type: 'StaticAttachment',
      category: 'Misc',
      flags: [{ flag: 'flag{testing}' }],
      originalScore: 1000,
      minScoreRate: 0.1,
      attachment: { type: 'Local', url: expect.stringMatching(/^\/assets\/[0-9a-f]{64}\/dist\.zip$/) },
    })
    expect(byKey.get('Pwn/box')).toMatchObject({
      type: 'DynamicContainer',
      category: 'Pwn',
      flagTemplate: 'FLAG{test_[TEAM_HASH]}',
      containerImage: 'test:latest',
      containerExposePort: 8080,
      memoryLimit: 512,
      cpuCount: 2,
      storageLimit: 256,
      enableTrafficCapture: true,
    })
    // The ctfcli challenge's two files arrive as one zip players can download and open.
    const zipUrl = byKey.get('ctfcli/files')!.attachment!.url
    const download = await admin.get(zipUrl)
    expect(download.statusCode).toBe(200)
    const files = unzipSync(new Uint8Array(download.rawPayload))
    expect(Object.keys(files).sort()).toEqual(['test.pdf', 'test.png'])
    expect(files['test.png']!.byteLength).toBe(7532)

    const again = await run('plan', root, game.id)
    expect(again.out).toContain('0 to create, 0 to change, 3 unchanged, 0 only on the server')
    expect(again.code).toBe(EXIT.ok)
  })

  it('applies an edited file to the same challenge: new title and flags swapped, the rest left as it was', async () => {
    const game = await createGame(admin)
    const root = fixtureTree()
    await run('sync', root, game.id)
    const before = (await details(game.id)).find((c) => linkOf(c) === 'Misc/static-attachment')!
    const file = join(root, 'Misc/static-attachment/challenge.yml')
    writeFileSync(
      file,
      readFileSync(file, 'utf8')
        .replace('name: "static-attachment"', 'name: "Renamed"')
        .replace('- "flag{testing}"', '- "flag{new}"\n  - "flag{second}"'),
    )
    const r = await run('sync', root, game.id)
    expect(r.out).toContain(`changed Misc/static-attachment (#${before.id}): title, flags`)
    expect(r.code).toBe(EXIT.ok)
    const after = (await details(game.id)).find((c) => c.id === before.id)!
    expect(after.title).toBe('Renamed')
    expect(after.flags.map((f) => f.flag).sort()).toEqual(['flag{new}', 'flag{second}'])
    expect((await run('plan', root, game.id)).code).toBe(EXIT.ok)
  })

  it('removes a challenge whose folder is gone only with --prune, and never one made by hand', async () => {
    const game = await createGame(admin)
    const root = fixtureTree()
    await run('sync', root, game.id)
    const byHand = await admin.post(`/api/edit/games/${game.id}/challenges`, { title: 'By hand' })
    rmSync(join(root, 'Pwn'), { recursive: true })
    const box = (await details(game.id)).find((c) => linkOf(c) === 'Pwn/box')!

    const plain = await run('sync', root, game.id)
    expect(plain.out).toContain(
      `? server  #${box.id} "Dynamic Container Challenge" (key Pwn/box, folder gone): left alone`,
    )
    expect(plain.code).toBe(EXIT.ok)
    expect((await run('plan', root, game.id, '--prune')).code).toBe(EXIT.work)

    const pruned = await run('sync', root, game.id, '--prune')
    expect(pruned.out).toContain(`removed Pwn/box (#${box.id})`)
    expect(pruned.out).toContain('1 applied, 0 failed')
    const left = await details(game.id)
    expect(left.map((c) => c.title).sort()).toEqual(['By hand', 'Test Challenge', 'static-attachment'].sort())
    expect(left.find((c) => c.title === 'By hand')!.id).toBe(byHand.json().id)
    const again = await run('plan', root, game.id, '--prune')
    expect(again.out).toContain('0 to create, 0 to change, 2 unchanged, 0 to remove, 1 only on the server')
    expect(again.code).toBe(EXIT.ok)
  })

  it('leaves no half-made challenge when the server refuses a field, and says why', async () => {
    const game = await createGame(admin)
    const root = mkdtempSync(join(tmpdir(), 'pennant-cli-sync-'))
    mkdirSync(join(root, 'Pwn/weak'), { recursive: true })
    // A template with no [TEAM_HASH] or [GUID] and too little to leet: the server refuses it.
    writeFileSync(
      join(root, 'Pwn/weak/challenge.yml'),
      'name: weak\ntype: DynamicContainer\nvalue: 100\ncontainer:\n  flagTemplate: "f{a}"\n  containerImage: x:1\n  exposePort: 80\n',
    )
    const r = await run('sync', root, game.id)
    expect(r.code).toBe(EXIT.failed)
    expect(r.out).toMatch(/FAILED Pwn\/weak: PUT \/api\/edit\/games\/\d+\/challenges\/\d+: HTTP 400/)
    expect(r.out).toContain('0 applied, 1 failed')
    expect(await details(game.id)).toEqual([])
  })
})
