import { describe, expect, it } from 'vitest'
import {
  BATCH_LIMITS,
  type BatchRow,
  canCreate,
  detectDelimiter,
  headerField,
  isEmail,
  isHeaderRow,
  parseDelimited,
  previewBatch,
  rowOfError,
  rowProblems,
  shownRows,
  toCreateModels,
} from './user-batch'

const row = (over: Partial<BatchRow> = {}): BatchRow => ({
  userName: 'alice',
  email: 'alice@example.org',
  password: 'Secret1',
  realName: '',
  stdNumber: '',
  phone: '',
  teamName: '',
  ...over,
})

const codes = (r: BatchRow) => rowProblems(r).map((p) => `${p.field}:${p.code}`)

describe('detectDelimiter', () => {
  it('prefers a tab, as spreadsheets copy', () => {
    expect(detectDelimiter('a\tb,c\n')).toBe('\t')
  })
  it('takes a comma by default and a semicolon only without commas', () => {
    expect(detectDelimiter('a,b;c')).toBe(',')
    expect(detectDelimiter('a;b;c')).toBe(';')
    expect(detectDelimiter('just-one-column')).toBe(',')
  })
  it('looks at the first non-blank line only, outside quotes', () => {
    expect(detectDelimiter('\n\n"x\ty",b\nc\td')).toBe(',')
    expect(detectDelimiter('\r\n  \r\na\tb')).toBe('\t')
    expect(detectDelimiter('a,b\nc\td')).toBe(',')
  })
  it('ignores a byte-order mark', () => {
    expect(detectDelimiter('\uFEFFa;b')).toBe(';')
  })
})

describe('parseDelimited', () => {
  it('splits lines and cells, trimming cells', () => {
    expect(parseDelimited('a, b ,c\nd,e,f', ',')).toEqual([
      ['a', 'b', 'c'],
      ['d', 'e', 'f'],
    ])
  })
  it('keeps delimiters, line breaks and doubled quotes inside quoted fields', () => {
    expect(parseDelimited('"Smith, John","say ""hi""","two\nlines"\nx,y,z', ',')).toEqual([
      ['Smith, John', 'say "hi"', 'two\nlines'],
      ['x', 'y', 'z'],
    ])
  })
  it('accepts a quote after leading blanks and leaves inner quotes of plain cells alone', () => {
    expect(parseDelimited('  "a,b" ,c"d', ',')).toEqual([['a,b', 'c"d']])
  })
  it('handles CRLF, lone CR and a missing final line break', () => {
    expect(parseDelimited('a,b\r\nc,d\re,f', ',')).toEqual([
      ['a', 'b'],
      ['c', 'd'],
      ['e', 'f'],
    ])
    expect(parseDelimited('a,b\r\n', ',')).toEqual([['a', 'b']])
  })
  it('skips blank lines and lines of empty cells', () => {
    expect(parseDelimited('\n\na,b\n   \n,,\n\t\nc,d\n\n', ',')).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ])
  })
  it('drops a byte-order mark', () => {
    expect(parseDelimited('\uFEFFuserName,email', ',')).toEqual([['userName', 'email']])
  })
  it('keeps empty cells in the middle and at the end', () => {
    expect(parseDelimited('a,,c,', ',')).toEqual([['a', '', 'c', '']])
  })
  it('splits on tabs, where commas are ordinary characters', () => {
    expect(parseDelimited('a,b\tc\n"d\te"\tf', '\t')).toEqual([
      ['a,b', 'c'],
      ['d\te', 'f'],
    ])
  })
  it('detects the delimiter when none is given', () => {
    expect(parseDelimited('a;b\nc;d')).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ])
  })
})

describe('header detection', () => {
  it('maps column names ignoring case, spaces, underscores and hyphens', () => {
    expect(headerField('userName')).toBe('userName')
    expect(headerField('User Name')).toBe('userName')
    expect(headerField('E-mail')).toBe('email')
    expect(headerField('student_number')).toBe('stdNumber')
    expect(headerField('Team')).toBe('teamName')
    expect(headerField('favourite colour')).toBeNull()
    expect(headerField('')).toBeNull()
  })
  it('needs two known names and no e-mail address', () => {
    expect(isHeaderRow(['userName', 'email', 'password'])).toBe(true)
    expect(isHeaderRow(['email', 'whatever'])).toBe(false)
    expect(isHeaderRow(['user', 'team@example.org', 'password'])).toBe(false)
  })
})

describe('rowProblems', () => {
  it('accepts a complete valid row', () => {
    expect(
      rowProblems(
        row({ realName: 'Alice A', stdNumber: '2024001', phone: '+1 (555) 010-2030', teamName: 'Red' }),
      ),
    ).toEqual([])
  })
  it('requires user name, e-mail and password', () => {
    expect(codes(row({ userName: '', email: '', password: '' }))).toEqual([
      'userName:required',
      'email:required',
      'password:required',
    ])
  })
  it('checks the user name length (3–15)', () => {
    expect(codes(row({ userName: 'ab' }))).toEqual(['userName:too_short'])
    expect(codes(row({ userName: 'abc' }))).toEqual([])
    expect(codes(row({ userName: 'a'.repeat(15) }))).toEqual([])
    expect(codes(row({ userName: 'a'.repeat(16) }))).toEqual(['userName:too_long'])
  })
  it('checks the e-mail shape', () => {
    expect(codes(row({ email: 'nope' }))).toEqual(['email:email_invalid'])
    expect(codes(row({ email: 'a@b' }))).toEqual(['email:email_invalid'])
    expect(codes(row({ email: 'a b@example.org' }))).toEqual(['email:email_invalid'])
    expect(isEmail('first.last+tag@sub.example.co')).toBe(true)
    expect(isEmail('a..b@example.org')).toBe(false)
    expect(isEmail('a@-example.org')).toBe(false)
  })
  it('applies the password policy', () => {
    expect(codes(row({ password: 'Secret1' }))).toEqual([])
    expect(codes(row({ password: 'secret1' }))).toEqual(['password:password_weak'])
    expect(codes(row({ password: 'weak' }))).toEqual(['password:password_weak'])
    expect(codes(row({ password: `Aa1${'x'.repeat(BATCH_LIMITS.passwordMax)}` }))).toEqual([
      'password:too_long',
    ])
  })
  it('checks the optional fields', () => {
    expect(codes(row({ phone: '12' }))).toEqual(['phone:phone_invalid'])
    expect(codes(row({ phone: 'call me' }))).toEqual(['phone:phone_invalid'])
    expect(codes(row({ phone: '555-0100' }))).toEqual([])
    expect(codes(row({ teamName: 't'.repeat(21) }))).toEqual(['teamName:too_long'])
    expect(codes(row({ teamName: 't'.repeat(20) }))).toEqual([])
    expect(codes(row({ stdNumber: '1'.repeat(65) }))).toEqual(['stdNumber:too_long'])
    expect(codes(row({ realName: 'r'.repeat(129) }))).toEqual(['realName:too_long'])
  })
  it('counts lengths in UTF-16 code units, as the server does: an emoji is two', () => {
    // Five code points, six units: long enough for the password policy.
    expect(codes(row({ password: 'Ab1c😀' }))).toEqual([])
    expect(codes(row({ password: 'Ab1😀' }))).toEqual(['password:password_weak'])
    // Eight emoji are 16 units: one over the user name's 15.
    expect(codes(row({ userName: '😀'.repeat(8) }))).toEqual(['userName:too_long'])
    expect(codes(row({ userName: `a${'😀'.repeat(7)}` }))).toEqual([])
  })

  it('gives the limit with a length problem', () => {
    expect(rowProblems(row({ teamName: 't'.repeat(21) }))[0]?.params).toEqual({ max: 20 })
  })
})

describe('previewBatch', () => {
  it('assumes the default column order without a header', () => {
    const preview = previewBatch('alice,alice@example.org,Secret1,Alice A,001,555-0100,Red\n')
    expect(preview.header).toBe(false)
    expect(preview.rows).toHaveLength(1)
    expect(preview.rows[0]?.values).toEqual({
      userName: 'alice',
      email: 'alice@example.org',
      password: 'Secret1',
      realName: 'Alice A',
      stdNumber: '001',
      phone: '555-0100',
      teamName: 'Red',
    })
    expect(canCreate(preview)).toBe(true)
  })

  it('reads a header row in any order, with a BOM and CRLF, ignoring unknown columns', () => {
    const text =
      '\uFEFFteam,Password,e-mail,User Name,notes\r\nRed,Secret1,a@example.org,alice,hello\r\nRed,Secret2,b@example.org,bob,\r\n'
    const preview = previewBatch(text)
    expect(preview.header).toBe(true)
    expect(preview.ignoredColumns).toEqual(['notes'])
    expect(preview.missingColumns).toEqual([])
    expect(preview.rows.map((r) => [r.number, r.values.userName, r.values.email, r.values.teamName])).toEqual(
      [
        [1, 'alice', 'a@example.org', 'Red'],
        [2, 'bob', 'b@example.org', 'Red'],
      ],
    )
    expect(canCreate(preview)).toBe(true)
  })

  it('reports required columns a header lacks and refuses to create', () => {
    const preview = previewBatch('userName,email\nalice,a@example.org')
    expect(preview.missingColumns).toEqual(['password'])
    expect(canCreate(preview)).toBe(false)
  })

  it('reads tab-separated pastes with quoted cells', () => {
    const preview = previewBatch(
      'userName\temail\tpassword\trealName\nalice\ta@example.org\tSecret1\t"Smith, ""Al"""\n',
    )
    expect(preview.delimiter).toBe('\t')
    expect(preview.rows[0]?.values.realName).toBe('Smith, "Al"')
  })

  it('flags later duplicates of user names and e-mails, ignoring case', () => {
    const preview = previewBatch(
      ['alice,a@example.org,Secret1', 'ALICE,b@example.org,Secret1', 'carol,A@Example.org,Secret1'].join(
        '\n',
      ),
    )
    expect(preview.rows[0]?.problems).toEqual([])
    expect(preview.rows[1]?.problems).toEqual([{ field: 'userName', code: 'duplicate', params: { row: 1 } }])
    expect(preview.rows[2]?.problems).toEqual([{ field: 'email', code: 'duplicate', params: { row: 1 } }])
    expect(preview.invalidRows).toBe(2)
    expect(canCreate(preview)).toBe(false)
  })

  it('makes the first row naming a team its captain and counts distinct teams', () => {
    const preview = previewBatch(
      [
        'aa1,a1@example.org,Secret1,,,,Red',
        'bb1,b1@example.org,Secret1,,,,Blue',
        'aa2,a2@example.org,Secret1,,,,Red',
        'solo,solo@example.org,Secret1',
      ].join('\n'),
    )
    expect(preview.rows.map((r) => r.captain)).toEqual([true, true, false, false])
    expect(preview.teams).toEqual(['Red', 'Blue'])
  })

  it('treats team names case-sensitively, as the server does', () => {
    const preview = previewBatch('aa1,a1@example.org,Secret1,,,,red\nbb1,b1@example.org,Secret1,,,,Red')
    expect(preview.teams).toEqual(['red', 'Red'])
  })

  it('flags extra values when no header names them', () => {
    const preview = previewBatch('ann,ann@example.org,Secret1,,,,Red,surprise,')
    expect(preview.rows[0]?.problems).toEqual([{ field: null, code: 'extra_values', params: { count: 1 } }])
  })

  it('flags short rows by their missing values', () => {
    const preview = previewBatch('alice,alice@example.org')
    expect(preview.rows[0]?.problems.map((p) => p.code)).toEqual(['required'])
  })

  it('is empty for blank text', () => {
    const preview = previewBatch(' \n\r\n')
    expect(preview.rows).toEqual([])
    expect(canCreate(preview)).toBe(false)
  })

  it('refuses more rows than one batch holds', () => {
    const lines = Array.from(
      { length: BATCH_LIMITS.rows + 1 },
      (_, i) => `user${i},u${i}@example.org,Secret1`,
    )
    const preview = previewBatch(lines.join('\n'))
    expect(preview.invalidRows).toBe(0)
    expect(preview.tooMany).toBe(true)
    expect(canCreate(preview)).toBe(false)
    expect(canCreate(previewBatch(lines.slice(1).join('\n')))).toBe(true)
  })
})

describe('toCreateModels', () => {
  it('leaves empty optional values out', () => {
    const preview = previewBatch('alice,a@example.org,Secret1,,42,,Red')
    expect(toCreateModels(preview)).toEqual([
      { userName: 'alice', email: 'a@example.org', password: 'Secret1', stdNumber: '42', teamName: 'Red' },
    ])
  })
})

describe('rowOfError', () => {
  it('reads the service message "Row N (name): reason"', () => {
    expect(rowOfError('Row 3 (carol): Email already taken')).toEqual({
      row: 3,
      reason: 'Email already taken',
    })
  })
  it('uses the known user name when it holds "): "', () => {
    expect(rowOfError('Row 2 (a): b): Too weak', () => 'a): b')).toEqual({ row: 2, reason: 'Too weak' })
  })
  it('reads validator messages with a 0-based index', () => {
    expect(rowOfError('4.email must match format "email"')).toEqual({
      row: 5,
      reason: 'email must match format "email"',
    })
  })
  it('is null for messages naming no row', () => {
    expect(rowOfError('Too many requests')).toBeNull()
    expect(rowOfError('password is required')).toBeNull()
  })
})

describe('shownRows', () => {
  it('shows every row, or only rows with problems and the one the server refused', () => {
    const preview = previewBatch(
      'userName,email,password\nalice1,a@x.org,Str0ngPass\nb,bad,weak\ncarol1,c@x.org,Str0ngPass',
    )
    expect(shownRows(preview, false).map((r) => r.number)).toEqual([1, 2, 3])
    expect(shownRows(preview, true).map((r) => r.number)).toEqual([2])
    expect(shownRows(preview, true, 3).map((r) => r.number)).toEqual([2, 3])
  })
})
