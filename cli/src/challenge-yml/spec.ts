/** The normalized challenge spec: what one `challenge.yml` asks Pennant's edit API to hold. */

/** `ChallengeCategory` member names (api-contract §3). */
export const CATEGORIES = [
  'Misc',
  'Crypto',
  'Pwn',
  'Web',
  'Reverse',
  'Blockchain',
  'Forensics',
  'Hardware',
  'Mobile',
  'PPC',
  'AI',
  'Pentest',
  'OSINT',
] as const
export type ChallengeCategory = (typeof CATEGORIES)[number]

/** `ChallengeType` member names (api-contract §3). */
export const TYPES = ['StaticAttachment', 'StaticContainer', 'DynamicAttachment', 'DynamicContainer'] as const
export type ChallengeType = (typeof TYPES)[number]

export const isContainerType = (type: ChallengeType) =>
  type === 'StaticContainer' || type === 'DynamicContainer'

export type Dialect = 'ctfcli' | 'gzcli'

/** The handout as the file names it; `local` paths are absolute and exist. */
export type AttachmentSpec =
  | { kind: 'none' }
  | { kind: 'remote'; url: string }
  /** One file handed out as is, or (`pack`) several files or a folder packed into one zip named `name`. */
  | { kind: 'local'; paths: string[]; name: string; pack: boolean }

export interface ContainerSpec {
  image: string
  exposePort: number
  /** MB, 32..1048576. */
  memoryLimit?: number
  /** Tenths of a CPU, 1..1024 (as the GZCTF API counts). */
  cpuCount?: number
  /** MB, 128..1048576. */
  storageLimit?: number
  enableTrafficCapture?: boolean
}

/**
 * One challenge. Optional fields are the ones a file may leave out: then the server's value is
 * kept (on creation, the server's default applies).
 */
export interface ChallengeSpec {
  /** Folder path relative to the tree root (posix separators): links the file to its server challenge. */
  key: string
  /** Path of the `challenge.yml` as given to the reader (for messages). */
  file: string
  dialect: Dialect
  title: string
  category: ChallengeCategory
  type: ChallengeType
  /** Markdown shown to players. */
  content: string
  hints: string[]
  /** Static flags, matched exactly. Empty for DynamicContainer (flags come from the template). */
  flags: string[]
  /** DynamicContainer only; null = the server's random `flag{guid}`. */
  flagTemplate: string | null
  isEnabled?: boolean
  originalScore?: number
  minScoreRate?: number
  difficulty?: number
  submissionLimit?: number
  disableBloodBonus?: boolean
  /** Epoch ms; Pennant's scheduled release. */
  openAt?: number | null
  closeAt?: number | null
  attachment: AttachmentSpec
  /** Set exactly for the container types. */
  container: ContainerSpec | null
}

export interface Diagnostic {
  severity: 'error' | 'warning'
  file: string
  /** 1-based line in `file`. */
  line: number
  /** Dotted path of the field, e.g. `flags[2].type`. */
  field: string
  message: string
}

export const formatDiagnostic = (d: Diagnostic) =>
  `${d.file}:${d.line}: ${d.severity}: ${d.field}: ${d.message}`
