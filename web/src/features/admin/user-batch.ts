import { isStrongPassword, PASSWORD_MAX_LENGTH } from '@engine/password.ts'
/**
 * Batch user creation, before anything is sent: spreadsheet-like text (pasted or from a .csv
 * file) → rows → the problems the server would refuse each row for. Pure, so it is tested on
 * its own; the checks mirror the server's `UserCreateModel` and password policy.
 */

/** The fields of one batch row, in the order assumed when the text has no header row. */
export const BATCH_FIELDS = [
  'userName',
  'email',
  'password',
  'realName',
  'stdNumber',
  'phone',
  'teamName',
] as const
export type BatchField = (typeof BATCH_FIELDS)[number]

/** The server's limits (`UserCreateModel`, `UserCreateBatch`). */
export const BATCH_LIMITS = {
  rows: 500,
  userNameMin: 3,
  userNameMax: 15,
  emailMax: 256,
  passwordMax: PASSWORD_MAX_LENGTH,
  realNameMax: 128,
  stdNumberMax: 64,
  phoneMax: 32,
  teamNameMax: 20,
} as const

export type BatchRow = Record<BatchField, string>

export type ProblemCode =
  | 'required'
  | 'too_short'
  | 'too_long'
  | 'email_invalid'
  | 'password_weak'
  | 'phone_invalid'
  | 'duplicate'
  | 'extra_values'

/** Why a row would fail: which field, what is wrong, and values for the message. */
export interface RowProblem {
  field: BatchField | null
  code: ProblemCode
  /** `max` / `min` for lengths, `row` (1-based) of the first occurrence for duplicates, `count` for extra values. */
  params?: Record<string, number | string>
}

export interface PreviewRow {
  /** 1-based position among the rows sent: the server's "Row N". */
  number: number
  values: BatchRow
  problems: RowProblem[]
  /** This row is the first to name its team, so its user becomes the captain. */
  captain: boolean
}

export interface BatchPreview {
  rows: PreviewRow[]
  /** Whether the first line was taken as a header row. */
  header: boolean
  /** Header cells that name no known column (their values are ignored). */
  ignoredColumns: string[]
  /** Required columns a header row lacks. */
  missingColumns: BatchField[]
  delimiter: Delimiter
  /** Distinct team names: the teams that will be created. */
  teams: string[]
  /** More rows than one batch may hold. */
  tooMany: boolean
  /** Rows with at least one problem. */
  invalidRows: number
}

export type Delimiter = '\t' | ',' | ';'

/** Drops a byte-order mark, which spreadsheet exports often start with. */
const stripBom = (text: string) => (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text)

/**
 * The delimiter of the first non-blank line (outside quotes): a tab if it has one (what
 * spreadsheets copy), else a semicolon if it has one and no comma (CSV in locales with a
 * decimal comma), else a comma.
 */
export function detectDelimiter(text: string): Delimiter {
  const source = stripBom(text)
  let quoted = false
  let sawComma = false
  let sawSemicolon = false
  let started = false
  for (const ch of source) {
    if (ch === '"') quoted = !quoted
    else if (!quoted) {
      if (ch === '\n' || ch === '\r') {
        if (started) break
        continue
      }
      if (ch === '\t') return '\t'
      if (ch === ',') sawComma = true
      if (ch === ';') sawSemicolon = true
    }
    if (ch.trim()) started = true
  }
  return sawSemicolon && !sawComma ? ';' : ','
}

/**
 * Splits delimited text into rows of cells: fields in double quotes may hold the delimiter,
 * line breaks and `""` for a quote; lines end with LF, CRLF or CR; a leading BOM is dropped;
 * lines with nothing but blanks are skipped. Cells are trimmed.
 */
export function parseDelimited(text: string, delimiter: Delimiter = detectDelimiter(text)): string[][] {
  const source = stripBom(text)
  const rows: string[][] = []
  let row: string[] = []
  let cell = ''
  let quoted = false
  // Whether the cell began with a quote: only then are quotes special (a"b stays a"b).
  let cellQuoted = false

  const endCell = () => {
    row.push(cell.trim())
    cell = ''
    cellQuoted = false
  }
  const endRow = () => {
    endCell()
    if (row.some((c) => c !== '')) rows.push(row)
    row = []
  }

  for (let i = 0; i < source.length; i++) {
    const ch = source[i]!
    if (quoted) {
      if (ch === '"') {
        if (source[i + 1] === '"') {
          cell += '"'
          i++
        } else quoted = false
      } else cell += ch
      continue
    }
    if (ch === '"' && cell.trim() === '' && !cellQuoted) {
      // An opening quote, possibly after blanks the spreadsheet left before it.
      cell = ''
      quoted = true
      cellQuoted = true
    } else if (ch === delimiter) endCell()
    else if (ch === '\r') {
      if (source[i + 1] === '\n') i++
      endRow()
    } else if (ch === '\n') endRow()
    else cell += ch
  }
  if (cell !== '' || row.length) endRow()
  return rows
}

/** Header names understood for each field, compared without case, spaces, `_`, `-` or `.`. */
const ALIASES: Record<BatchField, string[]> = {
  userName: ['username', 'user', 'name', 'login', 'account'],
  email: ['email', 'mail', 'emailaddress'],
  password: ['password', 'pass', 'passwd', 'pwd'],
  realName: ['realname', 'fullname'],
  stdNumber: ['stdnumber', 'studentnumber', 'studentid', 'stdno', 'stdid', 'number'],
  phone: ['phone', 'phonenumber', 'tel', 'telephone', 'mobile'],
  teamName: ['teamname', 'team'],
}

const normaliseHeader = (cell: string) => cell.toLowerCase().replace(/[\s_.-]/g, '')

/** The field a header cell names, if any. */
export function headerField(cell: string): BatchField | null {
  const key = normaliseHeader(cell)
  if (!key) return null
  for (const field of BATCH_FIELDS) if (ALIASES[field].includes(key)) return field
  return null
}

/**
 * Whether a first row is a header: at least two cells name known columns and none holds an
 * e-mail address (a data row always does).
 */
export function isHeaderRow(cells: string[]): boolean {
  if (cells.some((c) => c.includes('@'))) return false
  return cells.filter((c) => headerField(c) !== null).length >= 2
}

// The shape the server's `email` format accepts (dotted local part, dotted domain of letters,
// digits and inner hyphens).
const EMAIL =
  /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i
// The server's phone pattern: digits with the usual separators, optionally a leading +.
const PHONE = /^\+?[0-9][0-9 ().-]{2,30}$/

export const isEmail = (value: string) => EMAIL.test(value)
export const isPhone = (value: string) => PHONE.test(value)

/** The problems of one row's own values (duplicates across rows are found by {@link previewBatch}). */
export function rowProblems(row: BatchRow): RowProblem[] {
  const problems: RowProblem[] = []
  const max = (field: BatchField, limit: number) => {
    if (row[field].length > limit) problems.push({ field, code: 'too_long', params: { max: limit } })
  }

  if (!row.userName) problems.push({ field: 'userName', code: 'required' })
  else if (row.userName.length < BATCH_LIMITS.userNameMin)
    problems.push({ field: 'userName', code: 'too_short', params: { min: BATCH_LIMITS.userNameMin } })
  else max('userName', BATCH_LIMITS.userNameMax)

  if (!row.email) problems.push({ field: 'email', code: 'required' })
  else if (row.email.length > BATCH_LIMITS.emailMax) max('email', BATCH_LIMITS.emailMax)
  else if (!isEmail(row.email)) problems.push({ field: 'email', code: 'email_invalid' })

  if (!row.password) problems.push({ field: 'password', code: 'required' })
  else if (row.password.length > BATCH_LIMITS.passwordMax) max('password', BATCH_LIMITS.passwordMax)
  else if (!isStrongPassword(row.password)) problems.push({ field: 'password', code: 'password_weak' })

  max('realName', BATCH_LIMITS.realNameMax)
  max('stdNumber', BATCH_LIMITS.stdNumberMax)
  if (row.phone) {
    if (row.phone.length > BATCH_LIMITS.phoneMax) max('phone', BATCH_LIMITS.phoneMax)
    else if (!isPhone(row.phone)) problems.push({ field: 'phone', code: 'phone_invalid' })
  }
  max('teamName', BATCH_LIMITS.teamNameMax)
  return problems
}

const emptyRow = (): BatchRow => ({
  userName: '',
  email: '',
  password: '',
  realName: '',
  stdNumber: '',
  phone: '',
  teamName: '',
})

const REQUIRED: BatchField[] = ['userName', 'email', 'password']

/**
 * Reads pasted or uploaded text into rows with their problems: a header row (column names in
 * any order) is recognised, otherwise {@link BATCH_FIELDS} order is assumed. User names and
 * e-mails that repeat within the text (ignoring case) are problems on the later rows, since the
 * server would merge them into one account.
 */
export function previewBatch(text: string): BatchPreview {
  const delimiter = detectDelimiter(text)
  const table = parseDelimited(text, delimiter)
  const header = table.length > 0 && isHeaderRow(table[0]!)
  let columns: (BatchField | null)[] = [...BATCH_FIELDS]
  const ignoredColumns: string[] = []
  let missingColumns: BatchField[] = []
  if (header) {
    const seen = new Set<BatchField>()
    columns = table[0]!.map((cell) => {
      const field = headerField(cell)
      // A column named twice: the first one counts.
      if (!field || seen.has(field)) {
        if (cell) ignoredColumns.push(cell)
        return null
      }
      seen.add(field)
      return field
    })
    missingColumns = REQUIRED.filter((f) => !seen.has(f))
  }

  const firstByName = new Map<string, number>()
  const firstByEmail = new Map<string, number>()
  const captains = new Set<string>()
  const rows = table.slice(header ? 1 : 0).map((cells, index): PreviewRow => {
    const number = index + 1
    const values = emptyRow()
    cells.forEach((cell, i) => {
      const field = columns[i]
      if (field) values[field] = cell
    })
    const problems = rowProblems(values)
    const extra = header ? 0 : cells.slice(columns.length).filter((c) => c !== '').length
    if (extra > 0) problems.push({ field: null, code: 'extra_values', params: { count: extra } })

    const duplicate = (field: 'userName' | 'email', seen: Map<string, number>) => {
      const key = values[field].toLowerCase()
      if (!key) return
      const first = seen.get(key)
      if (first === undefined) seen.set(key, number)
      else problems.push({ field, code: 'duplicate', params: { row: first } })
    }
    duplicate('userName', firstByName)
    duplicate('email', firstByEmail)

    let captain = false
    if (values.teamName && !captains.has(values.teamName)) {
      captains.add(values.teamName)
      captain = true
    }
    return { number, values, problems, captain }
  })

  return {
    rows,
    header,
    ignoredColumns,
    missingColumns,
    delimiter,
    teams: [...captains],
    tooMany: rows.length > BATCH_LIMITS.rows,
    invalidRows: rows.filter((r) => r.problems.length > 0).length,
  }
}

/** Whether the preview may be sent: some rows, none with a problem, within the limit. */
export function canCreate(preview: BatchPreview): boolean {
  return (
    preview.rows.length > 0 &&
    preview.invalidRows === 0 &&
    !preview.tooMany &&
    preview.missingColumns.length === 0
  )
}

/** The request body: empty optional values are left out. */
export function toCreateModels(preview: BatchPreview) {
  return preview.rows.map(({ values }) => {
    const model: {
      userName: string
      email: string
      password: string
      realName?: string
      stdNumber?: string
      phone?: string
      teamName?: string
    } = { userName: values.userName, email: values.email, password: values.password }
    for (const field of ['realName', 'stdNumber', 'phone', 'teamName'] as const)
      if (values[field]) model[field] = values[field]
    return model
  })
}

/**
 * The row a batch refusal names: the service's "Row N (name): reason", or the validator's
 * "N.field …" (0-based index). `nameOf` gives a row's user name, so a name holding "): " does
 * not cut the reason short. Null when the message names no row.
 */
export function rowOfError(
  title: string,
  nameOf: (row: number) => string | undefined = () => undefined,
): { row: number; reason: string } | null {
  const service = /^Row (\d+) \(/.exec(title)
  if (service) {
    const row = Number(service[1])
    const prefix = `Row ${row} (${nameOf(row) ?? ''}): `
    const reason = title.startsWith(prefix)
      ? title.slice(prefix.length)
      : (/^Row \d+ \(.*?\): ([\s\S]*)$/.exec(title)?.[1] ?? title)
    return { row, reason: reason.trim() || title }
  }
  const validator = /^(\d+)\.(\w+) ([\s\S]*)$/.exec(title)
  if (validator) return { row: Number(validator[1]) + 1, reason: `${validator[2]} ${validator[3]}` }
  return null
}

/** The rows a preview shows: all, or only those with problems (and the one the server refused). */
export function shownRows(
  preview: BatchPreview,
  onlyProblems: boolean,
  refusedRow?: number | null,
): PreviewRow[] {
  return onlyProblems
    ? preview.rows.filter((r) => r.problems.length > 0 || r.number === refusedRow)
    : preview.rows
}
