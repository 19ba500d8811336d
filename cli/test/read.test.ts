import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { matchCategory } from '../src/challenge-yml/common.ts'
import { readChallengeYml } from '../src/challenge-yml/read.ts'
import { formatDiagnostic } from '../src/challenge-yml/spec.ts'

const dir = mkdtempSync(join(tmpdir(), 'pennant-cli-read-'))
const sut = (text: string, folderCategory: string | null = 'web') =>
  readChallengeYml('c/challenge.yml', text, { key: 'web/c', dir, folderCategory })
const messages = (text: string) => sut(text).diagnostics.map(formatDiagnostic)

describe(readChallengeYml, () => {
  it('detects the dialect from the type, else from dialect-only fields', () => {
    expect(sut('name: a\ntype: dynamic\nextra: {initial: 500, minimum: 100, decay: 10}').dialect).toBe(
      'ctfcli',
    )
    expect(
      sut('name: a\ntype: StaticContainer\ncontainer: {containerImage: x, exposePort: 80}').dialect,
    ).toBe('gzcli')
    expect(sut('name: a\nprovide: https://example.org/a.zip\ntype: StaticAttachment').dialect).toBe('gzcli')
    expect(sut('name: a\nstate: visible').dialect).toBe('ctfcli')
    expect(sut('name: a').dialect).toBe('ctfcli')
  })

  it('maps ctfcli dynamic scoring onto start, floor and a difficulty that reaches the floor as CTFd does', () => {
    const r = sut(
      'name: a\ntype: dynamic\nvalue: 500\nextra:\n  initial: 500\n  decay: 30\n  minimum: 100\nflags: [f]\n',
    )
    expect(r.spec).toMatchObject({ originalScore: 500, minScoreRate: 0.2, difficulty: 10.01 })
    expect(r.diagnostics.map(formatDiagnostic)).toContain(
      "c/challenge.yml:6: warning: extra.decay: CTFd's logarithmic curve has no exact Pennant equivalent: difficulty 10.01 puts the score within 5% of the minimum after 30 solves",
    )
    // Linear: 400 points at 20 a solve reach the floor after 20 solves.
    const linear = sut(
      'name: a\ntype: dynamic\nextra: {initial: 500, decay: 20, minimum: 100, function: linear}\nflags: [f]',
    )
    expect(linear.spec?.difficulty).toBe(6.68)
  })

  it('names file, line and field for each bad value', () => {
    expect(
      messages(
        'name: a\nvalue: lots\nattempts: -1\nstate: maybe\nflags:\n  - {type: static}\nhints:\n  - [x]\n',
      ),
    ).toEqual([
      'c/challenge.yml:2: error: value: must be a whole number, not "lots"',
      'c/challenge.yml:3: error: attempts: must be between 0 and 10000, not -1',
      'c/challenge.yml:4: error: state: must be hidden or visible, not "maybe"',
      'c/challenge.yml:6: error: flags[0].content: is required',
      'c/challenge.yml:8: error: hints[0]: must be text or a mapping with content, not a list',
    ])
  })

  it('refuses a regex flag at the line of its type', () => {
    const r = sut('name: a\nflags:\n  - flag{ok}\n  - type: regex\n    content: "flag{.*}"\n')
    expect(r.spec).toBeNull()
    expect(r.diagnostics.map(formatDiagnostic)).toEqual([
      'c/challenge.yml:4: error: flags[1].type: Pennant matches flags exactly and cannot honour a regex flag; list the exact flags instead',
    ])
  })

  it('reports YAML errors at their line', () => {
    const r = sut('name: a\nvalue: 1\nvalue: 2\nflags: [f]\n')
    expect(r.spec).toBeNull()
    expect(r.diagnostics.map(formatDiagnostic)).toEqual([
      'c/challenge.yml:3: error: (yaml): Map keys must be unique',
    ])
  })

  it('reports an empty required value at its key line', () => {
    expect(messages('description: x\nname:\nvalue: 1\n')).toEqual([
      'c/challenge.yml:2: error: name: is required',
    ])
  })

  it('takes the category from the folder when the file names none, and maps common spellings', () => {
    expect(sut('name: a\nflags: [f]').spec?.category).toBe('Web')
    expect(sut('name: a\ncategory: Reverse Engineering\nflags: [f]').spec?.category).toBe('Reverse')
    expect(sut('name: a\nflags: [f]', null).diagnostics.map(formatDiagnostic)).toEqual([
      'c/challenge.yml:1: error: category: is required (or put the challenge in a folder named after it)',
    ])
    expect(matchCategory('forensic')).toBe('Forensics')
    expect(matchCategory('stego')).toBeNull()
  })

  it('appends ctfcli connection info to the description and reads scheduled_at as the opening time', () => {
    const r = sut(
      'name: a\ndescription: Solve it.\nconnection_info: nc host 1337\nscheduled_at: "2026-06-15T14:00:00+02:00"\nflags: [f]\n',
    )
    expect(r.spec).toMatchObject({
      content: 'Solve it.\n\nnc host 1337',
      openAt: Date.parse('2026-06-15T12:00:00Z'),
    })
    expect(messages('name: a\nscheduled_at: "2026-06-15 12:00"\nflags: [f]')).toEqual([
      'c/challenge.yml:2: error: scheduled_at: must be an ISO 8601 date with a time zone offset, not "2026-06-15 12:00"',
    ])
  })

  it('reads a URL handout as a Remote attachment and refuses one mixed with files', () => {
    expect(sut('name: a\nfiles: [https://example.org/h.zip]\nflags: [f]').spec?.attachment).toEqual({
      kind: 'remote',
      url: 'https://example.org/h.zip',
    })
    writeFileSync(join(dir, 'a.txt'), 'a')
    expect(messages('name: a\nfiles:\n  - a.txt\n  - https://example.org/h.zip\nflags: [f]\n')).toEqual([
      'c/challenge.yml:4: error: files[1]: a URL handout must be the only one: Pennant keeps one attachment per challenge',
    ])
  })

  it('keeps handouts inside the challenge folder', () => {
    expect(messages('name: a\nfiles: [../../etc/passwd]\nflags: [f]')).toEqual([
      'c/challenge.yml:2: error: files[0]: "../../etc/passwd" must stay inside the challenge folder',
    ])
  })

  it('hands out one file as is and a folder as a zip', () => {
    mkdirSync(join(dir, 'dist'), { recursive: true })
    writeFileSync(join(dir, 'dist', 'x.bin'), 'x')
    expect(sut('name: a\ntype: StaticAttachment\nprovide: a.txt').spec?.attachment).toEqual({
      kind: 'local',
      paths: [join(dir, 'a.txt')],
      name: 'a.txt',
      pack: false,
    })
    expect(sut('name: a\ntype: StaticAttachment\nprovide: ./dist').spec?.attachment).toMatchObject({
      name: 'dist.zip',
      pack: true,
    })
  })

  it('checks gzcli container values against the API ranges, at their lines', () => {
    const text = [
      'name: box',
      'type: DynamicContainer',
      'container:',
      '  flagTemplate: flag{[TEAM_HASH]}',
      '  containerImage: ghcr.io/x/box:1',
      '  memoryLimit: 16',
      '  cpuCount: 2000',
      '  exposePort: 8080',
      '  containerExposePort: 9090',
      '  networkMode: Isolated',
      '  enableTrafficCapture: yes',
    ].join('\n')
    expect(messages(text)).toEqual([
      'c/challenge.yml:6: error: container.memoryLimit: must be between 32 and 1048576, not 16',
      'c/challenge.yml:7: error: container.cpuCount: must be between 1 and 1024, not 2000',
      'c/challenge.yml:9: error: container.containerExposePort: disagrees with exposePort (9090 vs 8080); keep one',
      'c/challenge.yml:10: warning: container.networkMode: ignored: Pennant has no network modes',
      'c/challenge.yml:11: error: container.enableTrafficCapture: must be true or false, not "yes"',
    ])
  })

  it('requires a container for the container types and warns about one on other types', () => {
    expect(messages('name: a\ntype: StaticContainer\nflags: [f]')).toEqual([
      'c/challenge.yml:1: error: container: is required for a StaticContainer challenge (containerImage, exposePort)',
    ])
    expect(
      messages('name: a\ntype: StaticAttachment\ncontainer: {containerImage: x, flagTemplate: "f{[GUID]}"}'),
    ).toEqual([
      'c/challenge.yml:3: warning: container: ignored: StaticAttachment challenges run no container',
      'c/challenge.yml:3: warning: container.flagTemplate: ignored: only DynamicContainer challenges use it, this one is StaticAttachment',
    ])
  })

  it('maps gzcli visibility, blood bonus, submission limit and deadline', () => {
    const r = sut(
      'name: a\ntype: StaticAttachment\nvalue: 50\nvisible: false\ndisableBloodBonus: true\nsubmissionLimit: 3\ndeadlineUtc: 1767225600\nflags: [f]',
    )
    expect(r.spec).toMatchObject({
      isEnabled: false,
      originalScore: 50,
      minScoreRate: 1,
      disableBloodBonus: true,
      submissionLimit: 3,
      closeAt: 1767225600000,
    })
  })

  it('refuses a visible challenge without a flag, at the line that makes it visible', () => {
    expect(messages('name: a\nstate: visible\n')).toEqual([
      'c/challenge.yml:2: error: state: a visible challenge needs at least one flag (add flags, or set state: hidden)',
    ])
    expect(messages('name: a\ntype: StaticAttachment\nvisible: true\n')).toEqual([
      'c/challenge.yml:3: error: visible: a visible challenge needs at least one flag (add flags, or set visible: false)',
    ])
    expect(sut('name: a\nstate: hidden').spec?.isEnabled).toBe(false)
  })

  it('warns for every field it does not map', () => {
    expect(messages('name: a\ntopics: [x]\ncolour: blue\nflags: [f]\n')).toEqual([
      'c/challenge.yml:2: warning: topics: ignored: Pennant has no topics',
      'c/challenge.yml:3: warning: colour: ignored: not a field this dialect defines',
    ])
  })
})
