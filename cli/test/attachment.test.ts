import { createHash } from 'node:crypto'
import { mkdirSync, mkdtempSync, readFileSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { unzipSync } from 'fflate'
import { describe, expect, it } from 'vitest'
import { pack, resolveAttachment } from '../src/attachment.ts'

const FIXTURES = join(import.meta.dirname, 'fixtures')

describe(resolveAttachment, () => {
  it('hands out one file as is, hashed as the server will hash it', () => {
    const png = join(FIXTURES, 'ctfcli/test-challenge-files/files/test.png')
    const sut = resolveAttachment({ kind: 'local', paths: [png], name: 'test.png', pack: false })
    expect(sut).toMatchObject({
      type: 'Local',
      name: 'test.png',
      size: 7532,
      hash: createHash('sha256').update(readFileSync(png)).digest('hex'),
    })
  })

  it('packs a folder with its contents at the top of the zip', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pennant-cli-pack-'))
    mkdirSync(join(dir, 'dist/sub'), { recursive: true })
    writeFileSync(join(dir, 'dist/a.txt'), 'alpha')
    writeFileSync(join(dir, 'dist/sub/b.txt'), 'beta')
    const files = unzipSync(pack([join(dir, 'dist')]))
    expect(Object.keys(files).sort()).toEqual(['a.txt', 'sub/b.txt'])
    expect(new TextDecoder().decode(files['sub/b.txt'])).toBe('beta')
  })

  it('packs the same files to the same bytes whatever their timestamps', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pennant-cli-pack-'))
    writeFileSync(join(dir, 'one.txt'), 'one')
    writeFileSync(join(dir, 'two.txt'), 'two')
    const paths = [join(dir, 'one.txt'), join(dir, 'two.txt')]
    const first = resolveAttachment({ kind: 'local', paths, name: 'attachment.zip', pack: true })
    utimesSync(paths[0]!, new Date('2001-01-01'), new Date('2001-01-01'))
    const second = resolveAttachment({ kind: 'local', paths, name: 'attachment.zip', pack: true })
    expect(first.type === 'Local' && second.type === 'Local' && first.hash === second.hash).toBe(true)
    writeFileSync(paths[1]!, 'changed')
    const third = resolveAttachment({ kind: 'local', paths, name: 'attachment.zip', pack: true })
    expect(third.type === 'Local' && first.type === 'Local' && third.hash !== first.hash).toBe(true)
  })
})
