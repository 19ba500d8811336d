import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { ChallengeSpec, Diagnostic } from '../src/challenge-yml/spec.ts'
import { readTree } from '../src/tree.ts'

const FIXTURES = join(import.meta.dirname, 'fixtures')

/** `line field` of each diagnostic of one severity for files whose path ends in `suffix`. */
function found(list: Diagnostic[], suffix: string, severity: Diagnostic['severity']) {
  return list
    .filter((d) => d.file.endsWith(suffix) && d.severity === severity)
    .map((d) => `${d.line} ${d.field}`)
    .sort()
}

const byKey = (specs: ChallengeSpec[], key: string) => {
  const spec = specs.find((s) => s.key === key)
  if (!spec) throw new Error(`no spec for ${key}`)
  return spec
}

describe('ctfcli fixtures (CTFd/ctfcli)', () => {
  const sut = readTree(join(FIXTURES, 'ctfcli'))

  it('reads the three clean challenges and refuses the two with regex or case-insensitive flags', () => {
    expect(sut.specs.map((s) => s.key).sort()).toEqual([
      'test-challenge-dockerfile',
      'test-challenge-files',
      'test-challenge-minimal',
    ])
  })

  it('maps the minimal challenge field by field', () => {
    const spec = byKey(sut.specs, 'test-challenge-minimal')
    expect(spec).toMatchObject({
      dialect: 'ctfcli',
      title: 'Test Challenge',
      category: 'Misc',
      type: 'StaticAttachment',
      content: 'New Test Description',
      originalScore: 150,
      minScoreRate: 1,
      isEnabled: false,
      flags: [],
      hints: [],
      flagTemplate: null,
      attachment: { kind: 'none' },
      container: null,
    })
    expect(spec.difficulty).toBeUndefined()
    expect(found(sut.diagnostics, 'test-challenge-minimal/challenge.yml', 'warning')).toEqual([
      '2 category',
      '4 attribution',
      '6 author',
    ])
  })

  it('packs the two listed files into one zip handout', () => {
    const spec = byKey(sut.specs, 'test-challenge-files')
    expect(spec.attachment).toEqual({
      kind: 'local',
      pack: true,
      name: 'attachment.zip',
      paths: [
        join(FIXTURES, 'ctfcli/test-challenge-files/files/test.png'),
        join(FIXTURES, 'ctfcli/test-challenge-files/files/test.pdf'),
      ],
    })
  })

  it('warns that a ctfcli image is not deployed, naming the lines', () => {
    expect(found(sut.diagnostics, 'test-challenge-dockerfile/challenge.yml', 'warning')).toEqual([
      '10 protocol',
      '2 category',
      '4 attribution',
      '6 author',
      '9 image',
    ])
  })

  it('refuses the full example: case-insensitive and regex flags, at their lines', () => {
    expect(found(sut.diagnostics, 'test-challenge-full/challenge.yml', 'error')).toEqual([
      '16 flags[1].data',
      '17 flags[2].type',
    ])
    const regex = sut.diagnostics.find((d) => d.field === 'flags[2].type')!
    expect(regex.message).toMatch(/cannot honour a regex flag/)
    expect(found(sut.diagnostics, 'test-challenge-full/challenge.yml', 'warning')).toEqual(
      expect.arrayContaining(['22 topics', '26 tags', '36 hints[1].cost', '39 requirements', '43 extra']),
    )
  })

  it('refuses the spec example: two flags and a handout that is not there', () => {
    expect(found(sut.diagnostics, 'spec-example/challenge.yml', 'error')).toEqual([
      '113 files[0]',
      '85 flags[2].data',
      '89 flags[3].type',
    ])
    const missing = sut.diagnostics.find((d) => d.field === 'files[0]')!
    expect(missing.message).toBe('"dist/source.py" does not exist')
  })
})

describe('gzcli fixtures (dimasma0305/gzcli)', () => {
  const sut = readTree(join(FIXTURES, 'gzcli'))

  it('keys each challenge by its folder path and takes the category from the parent folder', () => {
    expect(sut.specs.map((s) => [s.key, s.category])).toEqual([
      ['testdata/Misc/test-challenge', 'Misc'],
      ['testdata/Pwn/dynamic-container-challenge', 'Pwn'],
      ['tree/Misc/static-attachment', 'Misc'],
    ])
  })

  it('maps a static attachment challenge, with gzcli scoring (10% floor from 100 points)', () => {
    expect(byKey(sut.specs, 'testdata/Misc/test-challenge')).toMatchObject({
      dialect: 'gzcli',
      title: 'Test Challenge',
      type: 'StaticAttachment',
      content: 'Test Description',
      flags: ['flag{test}'],
      hints: ['This is a hint'],
      isEnabled: true,
      originalScore: 100,
      minScoreRate: 0.1,
      attachment: { kind: 'none' },
      container: null,
    })
    expect(found(sut.diagnostics, 'Misc/test-challenge/challenge.yaml', 'warning')).toEqual([
      '12 scripts',
      '2 author',
    ])
  })

  it('maps a dynamic container: image, port (containerExposePort), limits, capture, template', () => {
    const spec = byKey(sut.specs, 'testdata/Pwn/dynamic-container-challenge')
    expect(spec).toMatchObject({
      title: 'Dynamic Container Challenge',
      type: 'DynamicContainer',
      flags: [],
      flagTemplate: 'FLAG{test_[TEAM_HASH]}',
      originalScore: 1000,
      minScoreRate: 0.1,
      container: {
        image: 'test:latest',
        exposePort: 8080,
        memoryLimit: 512,
        cpuCount: 2,
        storageLimit: 256,
        enableTrafficCapture: true,
      },
    })
    expect(spec.isEnabled).toBeUndefined()
  })

  it('packs a provided folder as a zip named after it', () => {
    expect(byKey(sut.specs, 'tree/Misc/static-attachment').attachment).toEqual({
      kind: 'local',
      pack: true,
      name: 'dist.zip',
      paths: [join(FIXTURES, 'gzcli/tree/Misc/static-attachment/dist')],
    })
  })

  it('names file, line and field of each bad value', () => {
    const errors = sut.diagnostics
      .filter((d) => d.severity === 'error')
      .map((d) => `${d.file.split('fixtures/gzcli/')[1]}:${d.line}: ${d.field}: ${d.message}`)
      .sort()
    expect(errors).toEqual([
      'testdata/Crypto/valid-challenge/challenge.yml:11: provide: "./dist" does not exist',
      'testdata/Misc/invalid-no-name/challenge.yml:1: name: is required',
      'tree/Pwn/static-container/challenge.yml:18: provide: "./dist" does not exist',
      'tree/Pwn/static-container/challenge.yml:21: container.containerImage: "{{.slug}}:latest" holds a gzcli placeholder; pennant needs the real image name',
      'tree/Web/dynamic-container/challenge.yml:17: container.containerImage: "{{.slug}}:latest" holds a gzcli placeholder; pennant needs the real image name',
    ])
  })
})
