import { Type } from 'typebox'
import { ChallengeCategory, ChallengeType, FileType } from '../../http/enums.ts'
import { Id, Nullable, RequiredString } from '../../http/schema.ts'
import { ContainerInfoModel } from '../containers/containers.schemas.ts'

export const Attachment = Type.Object({
  id: Type.Integer(),
  type: FileType,
  /** Local: `/assets/<hash>/<name>`; Remote: the URL; None: null. */
  url: Nullable(Type.String()),
  /** Size in bytes of a local file; null otherwise. */
  fileSize: Nullable(Type.Integer()),
})

export const FlagInfoModel = Type.Object({
  id: Type.Integer(),
  flag: Type.String(),
  attachment: Nullable(Attachment),
})

/** An instant in epoch milliseconds (scheduled release); 8.64e15 is the last one a Date holds. */
const EpochMs = Type.Integer({ minimum: 0, maximum: 8.64e15 })

/** Our addition (scheduled release): when players first see a challenge, and when it stops taking flags. */
const Schedule = {
  /** Hidden from players before this instant (epoch ms); null: shown as soon as it is enabled. */
  openAt: Nullable(EpochMs),
  /** Flags are refused from this instant on (epoch ms), the challenge stays visible; null: never. */
  closeAt: Nullable(EpochMs),
}

/**
 * Our addition, challenges as code: the folder a `pennant` sync ties the challenge to
 * (`web/sqli`), unique per game; null for challenges made by hand. Organisers only.
 */
const SourceKey = Type.String({ maxLength: 255, pattern: '^[^\\x00-\\x1f]*$' })

export const ChallengeInfoModel = Type.Object({
  id: Type.Integer(),
  title: Type.String(),
  category: ChallengeCategory,
  type: ChallengeType,
  isEnabled: Type.Boolean(),
  /** Current (dynamic) score. */
  score: Type.Integer(),
  minScore: Type.Integer(),
  originalScore: Type.Integer(),
  ...Schedule,
  sourceKey: Nullable(SourceKey),
})

export const ChallengeCreateModel = Type.Object({
  title: RequiredString({ maxLength: 128 }),
  category: Type.Optional(ChallengeCategory),
  type: Type.Optional(ChallengeType),
  /** Our addition: "" or absent leaves the challenge untied. */
  sourceKey: Type.Optional(Nullable(SourceKey)),
})

export const ChallengeEditDetailModel = Type.Object({
  id: Type.Integer(),
  title: Type.String(),
  content: Type.String(),
  category: ChallengeCategory,
  type: ChallengeType,
  hints: Type.Array(Type.String()),
  flagTemplate: Nullable(Type.String()),
  isEnabled: Type.Boolean(),
  acceptedCount: Type.Integer(),
  /** Download name of dynamic attachments. */
  fileName: Nullable(Type.String()),
  attachment: Nullable(Attachment),
  testContainer: Nullable(ContainerInfoModel),
  flags: Type.Array(FlagInfoModel),
  containerImage: Nullable(Type.String()),
  memoryLimit: Nullable(Type.Integer()),
  cpuCount: Nullable(Type.Integer()),
  storageLimit: Nullable(Type.Integer()),
  containerExposePort: Nullable(Type.Integer()),
  enableTrafficCapture: Type.Boolean(),
  disableBloodBonus: Type.Boolean(),
  submissionLimit: Type.Integer(),
  originalScore: Type.Integer(),
  minScoreRate: Type.Number(),
  difficulty: Type.Number(),
  ...Schedule,
  sourceKey: Nullable(SourceKey),
})

/** Every field optional; null or absent keeps the stored value. `type` cannot change. */
export const ChallengeUpdateModel = Type.Object({
  title: Type.Optional(Nullable(RequiredString({ maxLength: 128 }))),
  content: Type.Optional(Nullable(Type.String({ maxLength: 65536 }))),
  flagTemplate: Type.Optional(Nullable(Type.String({ maxLength: 120 }))),
  category: Type.Optional(Nullable(ChallengeCategory)),
  hints: Type.Optional(Nullable(Type.Array(Type.String({ maxLength: 4096 }), { maxItems: 64 }))),
  isEnabled: Type.Optional(Nullable(Type.Boolean())),
  fileName: Type.Optional(Nullable(Type.String({ maxLength: 255 }))),
  submissionLimit: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 10000 }))),
  containerImage: Type.Optional(Nullable(Type.String({ maxLength: 512 }))),
  memoryLimit: Type.Optional(Nullable(Type.Integer({ minimum: 32, maximum: 1048576 }))),
  cpuCount: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 1024 }))),
  storageLimit: Type.Optional(Nullable(Type.Integer({ minimum: 128, maximum: 1048576 }))),
  containerExposePort: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 65535 }))),
  enableTrafficCapture: Type.Optional(Nullable(Type.Boolean())),
  disableBloodBonus: Type.Optional(Nullable(Type.Boolean())),
  originalScore: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 1_000_000 }))),
  minScoreRate: Type.Optional(Nullable(Type.Number({ minimum: 0, maximum: 1 }))),
  difficulty: Type.Optional(Nullable(Type.Number({ minimum: 0, maximum: 1_000_000 }))),
  /** Unlike the fields above, null clears these (absent keeps them); closeAt must follow openAt. */
  openAt: Type.Optional(Schedule.openAt),
  closeAt: Type.Optional(Schedule.closeAt),
  /** Our addition: null or absent keeps it, "" unties the challenge from its folder. */
  sourceKey: Type.Optional(Nullable(SourceKey)),
})

const HexHash = Type.String({ pattern: '^[0-9a-f]{64}$' })
const RemoteUrl = Type.String({ pattern: '^https?://\\S+$', maxLength: 2048 })

export const AttachmentCreateModel = Type.Object({
  attachmentType: Type.Optional(FileType),
  fileHash: Type.Optional(Nullable(HexHash)),
  remoteUrl: Type.Optional(Nullable(RemoteUrl)),
})

export const FlagCreateModel = Type.Object({
  flag: RequiredString({ maxLength: 127 }),
  attachmentType: Type.Optional(FileType),
  fileHash: Type.Optional(Nullable(HexHash)),
  remoteUrl: Type.Optional(Nullable(RemoteUrl)),
})

export const ChallengeParams = Type.Object({ id: Id, cId: Id })
export const FlagParams = Type.Object({ id: Id, cId: Id, fId: Id })
