import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { formatPlan } from '../src/format.ts'
import { keyOf, linkOf, withKey } from '../src/link.ts'
import { plan } from '../src/plan.ts'
import { readTree } from '../src/tree.ts'
import { desiredOf, newServerChallenge, serverAfterSync } from './factories.ts'

const FIXTURES = join(import.meta.dirname, 'fixtures')
/** Every challenge that reads cleanly from both dialects' fixtures (six of them). */
const tree = () => desiredOf(readTree(FIXTURES).specs)

describe(plan, () => {
  it('creates every challenge of a parsed tree in an empty game', () => {
    const desired = tree()
    const sut = plan(desired, [])
    expect(desired).toHaveLength(6)
    expect(sut.items.map((i) => `${i.action} ${'key' in i ? i.key : ''}`)).toEqual([
      'create ctfcli/test-challenge-dockerfile',
      'create ctfcli/test-challenge-files',
      'create ctfcli/test-challenge-minimal',
      'create gzcli/testdata/Misc/test-challenge',
      'create gzcli/testdata/Pwn/dynamic-container-challenge',
      'create gzcli/tree/Misc/static-attachment',
    ])
    expect(sut.hasWork).toBe(true)
  })

  it('changes nothing when the server already holds the tree', () => {
    const desired = tree()
    const server = desired.map((d, i) => serverAfterSync(d, i + 1))
    const sut = plan(desired, server)
    expect(sut.items.every((i) => i.action === 'unchanged')).toBe(true)
    expect(sut.items).toHaveLength(6)
    expect(sut.hasWork).toBe(false)
    expect(formatPlan(sut)).toMatch(/0 to create, 0 to change, 6 unchanged, 0 only on the server$/)
  })

  it('lists each changed field with its old and new value, keyed by folder even after a rename', () => {
    const desired = tree()
    const server = desired.map((d, i) => serverAfterSync(d, i + 1))
    const box = server.find((s) => linkOf(s) === 'gzcli/testdata/Pwn/dynamic-container-challenge')!
    Object.assign(box, { title: 'Old name', memoryLimit: 256, flagTemplate: 'flag{[GUID]}', hints: ['old'] })
    const sut = plan(desired, server)
    const item = sut.items.find((i) => i.action === 'change')
    expect(item).toEqual({
      action: 'change',
      key: 'gzcli/testdata/Pwn/dynamic-container-challenge',
      id: box.id,
      title: 'Dynamic Container Challenge',
      recreate: false,
      adopted: false,
      changes: [
        { field: 'title', from: 'Old name', to: 'Dynamic Container Challenge' },
        { field: 'hints', from: ['old'], to: [] },
        { field: 'flagTemplate', from: 'flag{[GUID]}', to: 'FLAG{test_[TEAM_HASH]}' },
        { field: 'memoryLimit', from: 256, to: 512 },
      ],
    })
    expect(sut.items.filter((i) => i.action === 'change')).toHaveLength(1)
    expect(sut.hasWork).toBe(true)
  })

  it('compares flags as a set and the handout by its content hash', () => {
    const [d] = desiredOf(readTree(join(FIXTURES, 'gzcli/tree/Misc')).specs)
    const s = serverAfterSync(d!, 7)
    s.flags = [{ id: 1, flag: 'flag{other}' }]
    s.attachment = { type: 'Local', url: `/assets/${'0'.repeat(64)}/dist.zip` }
    const sut = plan([d!], [s])
    expect(sut.items[0]).toMatchObject({
      action: 'change',
      changes: [
        { field: 'flags', from: ['flag{other}'], to: ['flag{testing}'] },
        {
          field: 'attachment',
          from: `/assets/${'0'.repeat(64)}/dist.zip`,
          to: expect.stringMatching(/^\/assets\/[0-9a-f]{64}\/dist\.zip$/),
        },
      ],
    })
  })

  it('adopts an unlinked server challenge with the same title, adding the key', () => {
    const [d] = desiredOf(readTree(join(FIXTURES, 'gzcli/tree/Misc')).specs)
    const s = serverAfterSync(d!, 3)
    s.sourceKey = null // made by hand or by gzcli: no key yet
    const sut = plan([d!], [s])
    expect(sut.items[0]).toMatchObject({ action: 'change', id: 3, adopted: true })
    expect(sut.items[0]).toHaveProperty('changes', [
      { field: 'sourceKey', from: null, to: 'static-attachment' },
    ])
  })

  it('finds a challenge synced before the source key by its description marker, and moves the key', () => {
    const [d] = desiredOf(readTree(join(FIXTURES, 'gzcli/tree/Misc')).specs)
    const s = serverAfterSync(d!, 5)
    s.sourceKey = null
    s.content = withKey(d!.content, 'static-attachment')
    // Another unlinked challenge of the same title is not taken: the marker decides.
    const other = { ...serverAfterSync(d!, 6), sourceKey: null }
    const sut = plan([d!], [s, other])
    expect(sut.items[0]).toMatchObject({ action: 'change', id: 5, adopted: false })
    expect(sut.items[0]).toHaveProperty('changes', [
      { field: 'sourceKey', from: null, to: 'static-attachment' },
      { field: 'content', from: s.content, to: d!.content },
    ])
    expect(sut.items[1]).toMatchObject({ action: 'server-only', id: 6 })
  })

  it('reports server challenges no folder claims, and does not count them as work', () => {
    const other = newServerChallenge(9, 'Legacy', 'StaticAttachment', 'Misc')
    const gone = newServerChallenge(10, 'Removed', 'StaticAttachment', 'Web')
    gone.sourceKey = 'web/removed'
    const sut = plan([], [other, gone])
    expect(sut.items).toEqual([
      { action: 'server-only', id: 9, title: 'Legacy', key: null },
      { action: 'server-only', id: 10, title: 'Removed', key: 'web/removed' },
    ])
    expect(sut.hasWork).toBe(false)
  })

  it('with prune, removes challenges whose folder is gone, never those made by hand', () => {
    const [d] = desiredOf(readTree(join(FIXTURES, 'gzcli/tree/Misc')).specs)
    const kept = serverAfterSync(d!, 1)
    const byHand = newServerChallenge(9, 'Legacy', 'StaticAttachment', 'Misc')
    const gone = { ...newServerChallenge(10, 'Removed', 'StaticAttachment', 'Web'), sourceKey: 'web/removed' }
    const old = newServerChallenge(11, 'Old style', 'StaticAttachment', 'Web')
    old.content = withKey('synced before the source key', 'web/old')
    const sut = plan([d!], [kept, byHand, gone, old], { prune: true })
    expect(sut.items).toEqual([
      { action: 'unchanged', key: 'static-attachment', id: 1, title: 'static-attachment' },
      { action: 'server-only', id: 9, title: 'Legacy', key: null },
      { action: 'remove', id: 10, title: 'Removed', key: 'web/removed' },
      { action: 'remove', id: 11, title: 'Old style', key: 'web/old' },
    ])
    expect(sut.hasWork).toBe(true)
    expect(formatPlan(sut).split('\n')).toEqual([
      '= same    static-attachment  #1',
      '? server  #9 "Legacy" (not made by a sync): left alone',
      '- remove  web/removed  #10 "Removed" (folder gone)',
      '- remove  web/old  #11 "Old style" (folder gone)',
      '0 to create, 0 to change, 1 unchanged, 2 to remove, 1 only on the server',
    ])
    // Without prune the same game is only reported, and there is nothing to do.
    expect(plan([d!], [kept, byHand, gone, old]).hasWork).toBe(false)
  })

  it('flags a type change as needing the challenge made again', () => {
    const [d] = desiredOf(readTree(join(FIXTURES, 'gzcli/tree/Misc')).specs)
    const s = serverAfterSync(d!, 4)
    s.type = 'StaticContainer'
    const sut = plan([d!], [s])
    expect(sut.items[0]).toMatchObject({
      action: 'change',
      recreate: true,
      changes: [{ field: 'type', from: 'StaticContainer', to: 'StaticAttachment' }],
    })
    expect(formatPlan(sut)).toContain('(type differs: must be deleted and created again)')
  })

  it('leaves the second of two challenges carrying one key alone, with a note', () => {
    const [d] = desiredOf(readTree(join(FIXTURES, 'gzcli/tree/Misc')).specs)
    const sut = plan([d!], [serverAfterSync(d!, 1), serverAfterSync(d!, 2)])
    expect(sut.items.map((i) => i.action)).toEqual(['unchanged', 'server-only'])
    expect(sut.notes).toEqual(['challenges 1 and 2 both carry key static-attachment; 2 is left alone'])
  })
})

describe(keyOf, () => {
  it('reads back the key written into a description, escaping what would end the comment', () => {
    for (const key of ['web/sqli', 'a b/c>d', '100%/x']) expect(keyOf(withKey('text', key))).toBe(key)
    expect(keyOf('no marker here')).toBeNull()
    expect(withKey('', 'web/a')).toBe('<!-- pennant:key web/a -->')
  })
})
