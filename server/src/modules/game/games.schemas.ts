import { Type } from 'typebox'
import { Id, Nullable } from '../../http/schema.ts'
import { ParticipationStatus } from './participations.schemas.ts'

export const BasicGameInfoModel = Type.Object({
  id: Type.Integer(),
  title: Type.String(),
  summary: Type.String(),
  poster: Nullable(Type.String()),
  /** Most players per team; 0 = no limit. */
  limit: Type.Integer(),
  start: Type.Integer(),
  end: Type.Integer(),
})

export const DetailedGameInfoModel = Type.Object({
  id: Type.Integer(),
  title: Type.String(),
  summary: Type.String(),
  content: Type.String(),
  hidden: Type.Boolean(),
  divisions: Nullable(Type.Array(Type.String())),
  inviteCodeRequired: Type.Boolean(),
  writeupRequired: Type.Boolean(),
  poster: Nullable(Type.String()),
  limit: Type.Integer(),
  /** Teams registered, whatever their status. */
  teamCount: Type.Integer(),
  /** The caller's division and team, when joined. */
  division: Nullable(Type.String()),
  teamName: Nullable(Type.String()),
  practiceMode: Type.Boolean(),
  /** The caller's status; `Unsubmitted` when not joined or anonymous. */
  status: ParticipationStatus,
  start: Type.Integer(),
  end: Type.Integer(),
})

export const GameJoinModel = Type.Object({
  teamId: Id,
  division: Type.Optional(Nullable(Type.String({ maxLength: 31 }))),
  inviteCode: Type.Optional(Nullable(Type.String({ maxLength: 32 }))),
})
