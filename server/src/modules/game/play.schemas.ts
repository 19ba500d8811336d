import { Type } from 'typebox'
import { ChallengeCategory, ChallengeType } from '../../http/enums.ts'
import { Enum, Nullable } from '../../http/schema.ts'

export const AnswerResult = Enum('AnswerResult', {
  FlagSubmitted: 0,
  Accepted: 1,
  WrongAnswer: 2,
  CheatDetected: 3,
  NotFound: -1,
})
export const SubmissionType = Enum('SubmissionType', {
  Unaccepted: 0,
  FirstBlood: 1,
  SecondBlood: 2,
  ThirdBlood: 3,
  Normal: 4,
})

export const ChallengeDetailModel = Type.Object({
  id: Type.Integer(),
  title: Type.String(),
  content: Type.String(),
  category: ChallengeCategory,
  hints: Nullable(Type.Array(Type.String())),
  /** Current (dynamic) score. */
  score: Type.Integer(),
  type: ChallengeType,
  context: Type.Object({
    /** When the team's container stops. */
    closeTime: Nullable(Type.Integer()),
    /** Where the team's container listens. */
    instanceEntry: Nullable(Type.String()),
    url: Nullable(Type.String()),
    fileSize: Nullable(Type.Integer()),
  }),
  /** Most submissions a team may make; 0 = no limit. */
  limit: Type.Integer(),
  /** Submissions the team has made. */
  attempts: Type.Integer(),
})

export const FlagSubmitModel = Type.Object({ flag: Type.String({ maxLength: 1024 }) })

const ChallengeItem = Type.Object({
  id: Type.Integer(),
  score: Type.Integer(),
  type: SubmissionType,
  userName: Nullable(Type.String()),
  time: Type.Integer(),
})
export const ScoreboardItem = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  bio: Nullable(Type.String()),
  division: Nullable(Type.String()),
  avatar: Nullable(Type.String()),
  score: Type.Integer(),
  rank: Type.Integer(),
  divisionRank: Nullable(Type.Integer()),
  lastSubmissionTime: Type.Integer(),
  solvedChallenges: Type.Array(ChallengeItem),
  solvedCount: Type.Integer(),
})
export const ChallengeInfo = Type.Object({
  id: Type.Integer(),
  title: Type.String(),
  category: ChallengeCategory,
  score: Type.Integer(),
  solved: Type.Integer(),
  bloods: Type.Array(
    Type.Object({
      id: Type.Integer(),
      name: Type.String(),
      avatar: Nullable(Type.String()),
      submitTimeUtc: Nullable(Type.Integer()),
    }),
  ),
  disableBloodBonus: Type.Boolean(),
})
export const ScoreboardModel = Type.Object({
  updateTimeUtc: Type.Integer(),
  bloodBonus: Type.Integer(),
  timeLines: Type.Record(
    Type.String(),
    Type.Array(
      Type.Object({
        id: Type.Integer(),
        name: Type.String(),
        items: Type.Array(Type.Object({ time: Type.Integer(), score: Type.Integer() })),
      }),
    ),
  ),
  items: Type.Array(ScoreboardItem),
  challenges: Type.Record(Type.String(), Type.Array(ChallengeInfo)),
  challengeCount: Type.Integer(),
})

export const GameDetailModel = Type.Object({
  challenges: Type.Record(Type.String(), Type.Array(ChallengeInfo)),
  challengeCount: Type.Integer(),
  rank: Nullable(ScoreboardItem),
  /** `<teamId>:<signature>`, proof of participation signed by the game. */
  teamToken: Type.String(),
  writeupRequired: Type.Boolean(),
  writeupDeadline: Type.Integer(),
})
