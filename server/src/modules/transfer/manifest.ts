import { Ajv, type ValidateFunction } from 'ajv'
import { type Static, Type } from 'typebox'
import { ChallengeCategoryValues, ChallengeTypeValues, NoticeTypeValues } from '../../http/enums.ts'

/** What the archive says it is: anything else is not ours (a foreign archive). */
export const FORMAT = 'pennant-game'
/** The versions this server reads; a newer exporter's archive is refused, not half-read. */
export const VERSION = 1
export const MANIFEST_NAME = 'manifest.json'
/** Blobs sit in the archive under `blobs/<sha256>`: their name is their hash, checked on import. */
export const blobEntry = (hash: string) => `blobs/${hash}`

const names = <M extends Record<string, number>>(m: M) => Type.Enum(Object.keys(m) as (keyof M & string)[])

const Hash = Type.String({ pattern: '^[0-9a-f]{64}$' })
/** Epoch ms from 1970 to the end of year 9999: what the database keeps without complaint. */
const Ms = Type.Integer({ minimum: 0, maximum: 253_402_300_799_999 })
const OptMs = Type.Union([Ms, Type.Null()])
const Text = (maxLength: number) => Type.String({ maxLength })

/** A local file by hash (its bytes in the archive), or a remote URL kept as a URL. */
export const AttachmentRef = Type.Union([
  Type.Object({ type: Type.Literal('Local'), hash: Hash }, { additionalProperties: false }),
  Type.Object({ type: Type.Literal('Remote'), url: Text(2048) }, { additionalProperties: false }),
])
export type AttachmentRef = Static<typeof AttachmentRef>
const OptAttachment = Type.Union([AttachmentRef, Type.Null()])

const ManifestGame = Type.Object(
  {
    title: Type.String({ minLength: 1, maxLength: 128 }),
    hidden: Type.Boolean(),
    summary: Text(100_000),
    content: Text(1_000_000),
    acceptWithoutReview: Type.Boolean(),
    writeupRequired: Type.Boolean(),
    inviteCode: Type.Union([Text(32), Type.Null()]),
    divisions: Type.Array(Text(64), { maxItems: 1000 }),
    teamMemberCountLimit: Type.Integer({ minimum: 0, maximum: 2 ** 31 - 1 }),
    containerCountLimit: Type.Integer({ minimum: 0, maximum: 2 ** 31 - 1 }),
    start: Ms,
    end: Ms,
    writeupDeadline: Ms,
    writeupNote: Text(100_000),
    bloodBonus: Type.Integer({ minimum: 0, maximum: 2 ** 53 - 1 }),
    practiceMode: Type.Boolean(),
    freezeAt: OptMs,
    revealAt: OptMs,
    poster: Type.Union([Hash, Type.Null()]),
  },
  { additionalProperties: false },
)

const ManifestFlag = Type.Object(
  { flag: Type.String({ minLength: 1, maxLength: 127 }), attachment: OptAttachment },
  { additionalProperties: false },
)

const ManifestChallenge = Type.Object(
  {
    /** The challenge's handle inside this archive (submissions point at it). */
    ref: Type.Integer({ minimum: 1, maximum: 2 ** 31 - 1 }),
    title: Type.String({ minLength: 1, maxLength: 128 }),
    content: Text(1_000_000),
    category: names(ChallengeCategoryValues),
    type: names(ChallengeTypeValues),
    hints: Type.Array(Text(10_000), { maxItems: 1000 }),
    isEnabled: Type.Boolean(),
    submissionLimit: Type.Integer({ minimum: 0, maximum: 2 ** 31 - 1 }),
    containerImage: Text(512),
    memoryLimit: Type.Integer({ minimum: 0, maximum: 2 ** 31 - 1 }),
    storageLimit: Type.Integer({ minimum: 0, maximum: 2 ** 31 - 1 }),
    cpuCount: Type.Integer({ minimum: 0, maximum: 2 ** 31 - 1 }),
    containerExposePort: Type.Integer({ minimum: 0, maximum: 65535 }),
    fileName: Text(256),
    flagTemplate: Type.Union([Text(120), Type.Null()]),
    attachment: OptAttachment,
    flags: Type.Array(ManifestFlag, { maxItems: 100_000 }),
    enableTrafficCapture: Type.Boolean(),
    disableBloodBonus: Type.Boolean(),
    originalScore: Type.Integer({ minimum: 0, maximum: 2 ** 31 - 1 }),
    minScoreRate: Type.Number({ minimum: 0, maximum: 1 }),
    difficulty: Type.Number({ minimum: 0, maximum: 1e9 }),
    openAt: OptMs,
    closeAt: OptMs,
  },
  { additionalProperties: false },
)

const ManifestNotice = Type.Object(
  { type: names(NoticeTypeValues), values: Type.Array(Text(10_000), { maxItems: 16 }), time: Ms },
  { additionalProperties: false },
)

/** Full archives only: a team as it took part; matched by name on import, never created. */
const ManifestTeam = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 20 }),
    /** `ParticipationStatus` value (Pending 0 … Unsubmitted 4). */
    status: Type.Integer({ minimum: 0, maximum: 4 }),
    division: Type.Union([Text(64), Type.Null()]),
    /** Members' user names, as they played. */
    members: Type.Array(Type.String({ maxLength: 16 }), { maxItems: 1000 }),
    writeup: Type.Union([Hash, Type.Null()]),
    writeupTime: OptMs,
  },
  { additionalProperties: false },
)

const ManifestSubmission = Type.Object(
  {
    team: Type.String({ minLength: 1, maxLength: 20 }),
    user: Type.Union([Type.String({ maxLength: 16 }), Type.Null()]),
    challenge: Type.Integer({ minimum: 1, maximum: 2 ** 31 - 1 }),
    answer: Type.String({ maxLength: 127 }),
    status: Type.Enum(['Accepted', 'WrongAnswer', 'CheatDetected', 'NotFound', 'FlagSubmitted']),
    time: Ms,
  },
  { additionalProperties: false },
)

export const Manifest = Type.Object(
  {
    format: Type.Literal(FORMAT),
    version: Type.Literal(VERSION),
    exportedAt: Ms,
    full: Type.Boolean(),
    game: ManifestGame,
    challenges: Type.Array(ManifestChallenge, { maxItems: 10_000 }),
    notices: Type.Array(ManifestNotice, { maxItems: 100_000 }),
    /** Every file the archive carries, by hash: the name it had and its size. */
    blobs: Type.Record(Hash, Type.Object({ name: Text(1024), size: Type.Integer({ minimum: 0 }) })),
    teams: Type.Optional(Type.Array(ManifestTeam, { maxItems: 100_000 })),
    submissions: Type.Optional(Type.Array(ManifestSubmission, { maxItems: 10_000_000 })),
  },
  { additionalProperties: false },
)
export type Manifest = Static<typeof Manifest>
export type ManifestChallenge = Static<typeof ManifestChallenge>

/**
 * The manifest's validator, compiled at its first use: compiling it when the module loaded cost
 * every start ~0.1–0.3 s of CPU for a check only imports run.
 */
let compiled: ValidateFunction | undefined
const validator = () => {
  compiled ??= new Ajv({ strict: false, allErrors: false }).compile(Manifest as object)
  return compiled
}

/** Where a NUL character hides in a value (PostgreSQL text cannot hold one), or null. */
function nulAt(value: unknown, at: string, depth = 0): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? at || '/' : null
  if (depth > 16 || typeof value !== 'object' || value === null) return null
  for (const [k, v] of Object.entries(value)) {
    const found = nulAt(v, `${at}/${k}`, depth + 1)
    if (found) return found
  }
  return null
}

/** The first reason the manifest is not one we can read, or null when it is. */
export function manifestProblem(value: unknown): string | null {
  const check = validator()
  if (check(value)) {
    const nul = nulAt(value, '')
    return nul ? `${nul} holds a NUL character` : null
  }
  const e = check.errors?.[0]
  return e ? `${e.instancePath || '/'} ${e.message ?? 'is invalid'}` : 'invalid'
}
