import { Type } from 'typebox'
import { Nullable, RequiredString, Timestamp } from '../../http/schema.ts'

const Division = Type.String({ minLength: 1, maxLength: 31 })

/** `GameInfoModel` as organisers read it. */
export const GameInfoModel = Type.Object({
  id: Type.Integer(),
  title: Type.String(),
  hidden: Type.Boolean(),
  summary: Type.String(),
  content: Type.String(),
  acceptWithoutReview: Type.Boolean(),
  writeupRequired: Type.Boolean(),
  /** Teams must give this code to join; null for an open game. */
  inviteCode: Nullable(Type.String()),
  divisions: Nullable(Type.Array(Type.String())),
  /** Most members who may play for one team; 0 = no limit. */
  teamMemberCountLimit: Type.Integer(),
  /** Most containers a team may run at once; 0 = no limit. */
  containerCountLimit: Type.Integer(),
  poster: Nullable(Type.String()),
  /** Base64 Ed25519 public key that verifies team tokens. */
  publicKey: Type.String(),
  /** After the end, teams may keep playing without scoring. */
  practiceMode: Type.Boolean(),
  start: Type.Integer(),
  end: Type.Integer(),
  writeupDeadline: Type.Integer(),
  writeupNote: Type.String(),
  /** Packed blood bonus (first << 20 | second << 10 | third, per mille). */
  bloodBonus: Type.Integer(),
  /**
   * Pennant addition (the `freeze` switch): from this time on players see the board as it stood
   * then, until `revealAt` or an admin's reveal; null, no freeze. Ignored while the switch is off.
   */
  freezeAt: Nullable(Type.Integer()),
  /** Pennant addition: when the true board is published again (a reveal sets it to now). */
  revealAt: Nullable(Type.Integer()),
})

/**
 * `GameInfoModel` as organisers send it. On create, fields left out take their defaults; on
 * update they keep their value. `id`, `poster` and `publicKey` are ignored.
 */
export const GameEditModel = Type.Object({
  id: Type.Optional(Type.Unknown()),
  title: RequiredString({ maxLength: 128 }),
  hidden: Type.Optional(Type.Boolean()),
  summary: Type.Optional(Type.String({ maxLength: 4096 })),
  content: Type.Optional(Type.String({ maxLength: 65536 })),
  acceptWithoutReview: Type.Optional(Type.Boolean()),
  writeupRequired: Type.Optional(Type.Boolean()),
  inviteCode: Type.Optional(Nullable(Type.String({ maxLength: 32 }))),
  divisions: Type.Optional(Nullable(Type.Array(Division, { maxItems: 64, uniqueItems: true }))),
  teamMemberCountLimit: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000 })),
  containerCountLimit: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000 })),
  poster: Type.Optional(Type.Unknown()),
  publicKey: Type.Optional(Type.Unknown()),
  practiceMode: Type.Optional(Type.Boolean()),
  start: Timestamp(),
  end: Timestamp(),
  writeupDeadline: Type.Optional(Timestamp()),
  writeupNote: Type.Optional(Type.String({ maxLength: 4096 })),
  bloodBonus: Type.Optional(Type.Integer({ minimum: 0, maximum: 2 ** 31 })),
  /** Pennant addition: within start..end; null clears it; left out keeps it. */
  freezeAt: Type.Optional(
    Nullable(Timestamp({ description: 'Scoreboard freeze (epoch ms), within start..end' })),
  ),
  /** Pennant addition: after `freezeAt`; null clears it; left out keeps it. */
  revealAt: Type.Optional(
    Nullable(Timestamp({ description: 'Automatic reveal (epoch ms), after freezeAt' })),
  ),
})
