import { createHash } from 'node:crypto'
import { type FlagSources, generateFlag } from './flag-template.ts'

// Kept apart from flag-template.ts so that file stays free of node:crypto and the web client can
// import it to show live template examples.

const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex')

/** A game's team-hash salt, derived from its stored private key (also shown to organisers). */
export const gameHashSalt = (storedPrivateKey: string) => sha256(`GZCTF@${storedPrivateKey}@PK`)

/** The 12 hex characters that make a team's flag for one challenge. */
export function teamHash(gameSalt: string, challengeId: number, participationToken: string): string {
  const salt = sha256(`${gameSalt}::${challengeId}`)
  return sha256(`${salt}::${participationToken}`).slice(12, 24)
}

/** The flag an admin test container receives. */
export const testFlag = (template: string | null | undefined, src: Omit<FlagSources, 'teamHash'>) =>
  template ? generateFlag(template, { ...src, teamHash: 'TestTeamHash' }) : 'flag{GZCTF_dynamic_flag_test}'
