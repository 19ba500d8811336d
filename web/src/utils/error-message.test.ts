import { describe, expect, it } from 'vitest'
import { ApiError } from '@/api/error'
import { errorMessage, errorTitleKey } from './error-message'

const UNKNOWN = 'common.error.unknown'

describe(errorMessage, () => {
  it('uses a string error as it is', () => {
    expect(errorMessage('boom', UNKNOWN)).toBe('boom')
  })

  it('prefers the title of a server error', () => {
    expect(errorMessage(new ApiError(400, 'Team name taken', 400), UNKNOWN)).toBe('Team name taken')
  })

  it('falls back to the response body title, then message, then cause', () => {
    expect(errorMessage({ response: { data: { title: 'from body' } }, message: 'm' }, UNKNOWN)).toBe(
      'from body',
    )
    expect(errorMessage(new Error('plain message'), UNKNOWN)).toBe('plain message')
    expect(errorMessage({ cause: 'the cause' }, UNKNOWN)).toBe('the cause')
  })

  it('skips empty candidates', () => {
    expect(errorMessage({ title: '', message: 'second' }, UNKNOWN)).toBe('second')
  })

  it('says unknown when nothing is usable', () => {
    expect(errorMessage(undefined, UNKNOWN)).toBe(UNKNOWN)
    expect(errorMessage({}, UNKNOWN)).toBe(UNKNOWN)
    expect(errorMessage(42, UNKNOWN)).toBe(UNKNOWN)
  })
})

describe(errorTitleKey, () => {
  it('asks to try later on 429', () => {
    expect(errorTitleKey(new ApiError(429, 'slow down', 429))).toBe('common.error.try_later')
    expect(errorTitleKey({ response: { status: 429 } })).toBe('common.error.try_later')
  })

  it('uses the default title otherwise', () => {
    expect(errorTitleKey(new ApiError(400, 'bad', 400))).toBe('common.error.refused')
    expect(errorTitleKey(new ApiError(401, 'who', 401))).toBe('common.error.sign_in')
    expect(errorTitleKey(new ApiError(403, 'no', 403))).toBe('common.error.forbidden')
    expect(errorTitleKey(new ApiError(404, 'gone', 404))).toBe('common.error.not_found')
    expect(errorTitleKey(new ApiError(500, 'oops', 500))).toBe('common.error.server')
    expect(errorTitleKey(new TypeError('Failed to fetch'))).toBe('common.error.network')
    expect(errorTitleKey(new ApiError(0, 'no answer', 0))).toBe('common.error.network')
    expect(errorTitleKey('x')).toBe('common.error.encountered')
  })
})
