import { describe, expect, it } from 'vitest'
import { gameHashSalt, teamHash, testFlag } from './team-hash.ts'

const fixed = {
  random: () => 0,
  guid: () => '0f8fad5b-d9cb-469f-a165-70867728950e',
}

describe(teamHash, () => {
  it('is 12 hex characters, stable per team and different between teams', () => {
    const salt = gameHashSalt('stored-private-key')
    const a = teamHash(salt, 7, '1:sig-a')
    expect(a).toMatch(/^[0-9a-f]{12}$/)
    expect(teamHash(salt, 7, '1:sig-a')).toBe(a)
    expect(teamHash(salt, 7, '2:sig-b')).not.toBe(a)
    expect(teamHash(salt, 8, '1:sig-a')).not.toBe(a)
  })

  it('matches a hand computation of sha256 chains', async () => {
    const { createHash } = await import('node:crypto')
    const h = (s: string) => createHash('sha256').update(s).digest('hex')
    const salt = h('GZCTF@k@PK')
    expect(gameHashSalt('k')).toBe(salt)
    expect(teamHash(salt, 3, 't')).toBe(h(`${h(`${salt}::3`)}::t`).slice(12, 24))
  })
})

describe(testFlag, () => {
  it('uses the fixed test flag without a template and TestTeamHash with one', () => {
    expect(testFlag(null, fixed)).toBe('flag{GZCTF_dynamic_flag_test}')
    expect(testFlag('flag{[TEAM_HASH]}', fixed)).toBe('flag{TestTeamHash}')
  })
})
