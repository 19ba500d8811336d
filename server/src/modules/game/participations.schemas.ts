import { Type } from 'typebox'
import { Enum, Nullable } from '../../http/schema.ts'
import { ProfileUserInfoModel } from '../account/account.schemas.ts'

export const ParticipationStatus = Enum('ParticipationStatus', {
  Pending: 0,
  Accepted: 1,
  Rejected: 2,
  Suspended: 3,
  Unsubmitted: 4,
})

export const TeamWithDetailedUserInfo = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  bio: Nullable(Type.String()),
  avatar: Nullable(Type.String()),
  locked: Type.Boolean(),
  captainId: Type.String({ format: 'uuid' }),
  members: Type.Array(ProfileUserInfoModel),
})

export const ParticipationInfoModel = Type.Object({
  /** Participation id. */
  id: Type.Integer(),
  team: TeamWithDetailedUserInfo,
  /** Users who joined the game for this team. */
  registeredMembers: Type.Array(Type.String({ format: 'uuid' })),
  division: Nullable(Type.String()),
  status: ParticipationStatus,
})

export const ParticipationEditModel = Type.Object({
  status: Type.Optional(Nullable(ParticipationStatus)),
  division: Type.Optional(Nullable(Type.String({ maxLength: 31 }))),
})
