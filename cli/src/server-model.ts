/** The parts of the edit API's models (api-contract §2.0, §2.5) the tool reads and writes. */

export interface ServerAttachment {
  type: 'None' | 'Local' | 'Remote'
  url: string | null
}

/** `ChallengeInfoModel`, from `GET /api/edit/games/{id}/challenges`. */
export interface ServerChallengeInfo {
  id: number
  title: string
  category: string
  type: string
  isEnabled: boolean
  /** The folder it is tied to (null: made by hand); absent on servers before the field. */
  sourceKey?: string | null
}

/** `ChallengeEditDetailModel`, from `GET /api/edit/games/{id}/challenges/{cId}`. */
export interface ServerChallenge {
  id: number
  title: string
  content: string
  category: string
  type: string
  hints: string[]
  flagTemplate: string | null
  isEnabled: boolean
  attachment: ServerAttachment | null
  flags: { id: number; flag: string }[]
  containerImage: string | null
  memoryLimit: number | null
  cpuCount: number | null
  storageLimit: number | null
  containerExposePort: number | null
  enableTrafficCapture: boolean
  disableBloodBonus: boolean
  submissionLimit: number
  originalScore: number
  minScoreRate: number
  difficulty: number
  openAt?: number | null
  closeAt?: number | null
  sourceKey?: string | null
}

/** `ChallengeUpdateModel`: every field optional, absent keeps the stored value. */
export type ChallengeUpdateModel = Partial<
  Pick<
    ServerChallenge,
    | 'title'
    | 'content'
    | 'category'
    | 'hints'
    | 'flagTemplate'
    | 'isEnabled'
    | 'submissionLimit'
    | 'containerImage'
    | 'memoryLimit'
    | 'cpuCount'
    | 'storageLimit'
    | 'containerExposePort'
    | 'enableTrafficCapture'
    | 'disableBloodBonus'
    | 'originalScore'
    | 'minScoreRate'
    | 'difficulty'
    | 'openAt'
    | 'closeAt'
    | 'sourceKey'
  >
>
