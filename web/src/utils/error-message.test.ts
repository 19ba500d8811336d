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
    expect(errorTitleKey(new ApiError(400, 'bad', 400))).toBe('common.error.encountered')
    expect(errorTitleKey('x')).toBe('common.error.encountered')
  })
})
