import { describe, expect, it } from 'vitest'
import { isDatabaseUnavailable } from './errors.ts'

/** A PostgreSQL error as node-postgres gives it, wrapped by Drizzle as its `cause`. */
const wrapped = (cause: unknown) => Object.assign(new Error('Failed query: select 1'), { cause })
const pgError = (code: string) => Object.assign(new Error(`pg ${code}`), { code })

describe('isDatabaseUnavailable', () => {
  it('knows a database that is restarting, stopped or out of reach', () => {
    for (const code of ['57P01', '57P02', '57P03', '08000', '08003', '08006', '08001', '08P01'])
      expect(isDatabaseUnavailable(wrapped(pgError(code))), code).toBe(true)
    for (const code of ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT'])
      expect(isDatabaseUnavailable(wrapped(pgError(code))), code).toBe(true)
    expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true)
    expect(isDatabaseUnavailable(new Error('timeout exceeded when trying to connect'))).toBe(true)
    // Node's "happy eyeballs" failure: one error per address tried.
    const both = new AggregateError([pgError('ECONNREFUSED'), pgError('ECONNREFUSED')])
    expect(isDatabaseUnavailable(wrapped(both))).toBe(true)
  })

  it('leaves every other failure a server error', () => {
    for (const code of ['23505', '40001', '42P01', '22P02', '57014'])
      expect(isDatabaseUnavailable(wrapped(pgError(code))), code).toBe(false)
    expect(isDatabaseUnavailable(new TypeError("Cannot read properties of undefined (reading 'id')"))).toBe(
      false,
    )
    expect(isDatabaseUnavailable(undefined)).toBe(false)
    expect(isDatabaseUnavailable('Connection terminated')).toBe(false)
  })
})
