import { describe, expect, it } from 'vitest'
import {
  type ChallengeSource,
  challengeBody,
  neighbours,
  toChallengeForm,
  validateChallengeForm,
} from './challenge-form'

const source = (over: Partial<ChallengeSource> = {}): ChallengeSource => ({
  title: 'Baby RSA',
  category: 'Crypto',
  type: 'StaticAttachment',
  content: '',
  hints: [],
  submissionLimit: 0,
  originalScore: 1000,
  difficulty: 5,
  minScoreRate: 0.25,
  disableBloodBonus: false,
  fileName: 'attachment',
  containerImage: '',
  containerExposePort: 80,
  cpuCount: 1,
  memoryLimit: 64,
  storageLimit: 256,
  enableTrafficCapture: false,
  ...over,
})

describe(validateChallengeForm, () => {
  it('accepts a new challenge as the server made it', () => {
    expect(validateChallengeForm(toChallengeForm(source()), 'StaticAttachment')).toEqual({})
  })

  it("checks the server's ranges and the container image only for container types", () => {
    const form = { ...toChallengeForm(source()), title: ' ', minScorePercent: 120, submissionLimit: 10_001 }
    expect(validateChallengeForm(form, 'StaticAttachment')).toEqual({
      title: 'admin.challenge.error.title_required',
      minScorePercent: 'admin.challenge.error.percent',
      submissionLimit: 'admin.challenge.error.submission_limit',
    })
    const container = { ...toChallengeForm(source()), cpuCount: 0, memoryLimit: 16 }
    expect(Object.keys(validateChallengeForm(container, 'DynamicContainer')).sort()).toEqual([
      'containerImage',
      'cpuCount',
      'memoryLimit',
    ])
  })

  it('needs a download name for dynamic attachments', () => {
    const form = { ...toChallengeForm(source()), fileName: '' }
    expect(validateChallengeForm(form, 'DynamicAttachment')).toEqual({
      fileName: 'admin.challenge.error.file_name',
    })
  })
})

describe(challengeBody, () => {
  it('turns the percentage back into a rate and drops blank hints', () => {
    const form = { ...toChallengeForm(source()), minScorePercent: 12.5, hints: ['a', ' ', ' b '] }
    const body = challengeBody(form, 'StaticAttachment')
    expect(body.minScoreRate).toBe(0.125)
    expect(body.hints).toEqual(['a', 'b'])
    expect(body).not.toHaveProperty('containerImage')
  })

  it('sends container settings for container types', () => {
    const body = challengeBody(toChallengeForm(source({ containerImage: ' nginx ' })), 'StaticContainer')
    expect(body).toMatchObject({ containerImage: 'nginx', cpuCount: 1, memoryLimit: 64, storageLimit: 256 })
  })
})

describe('the schedule (scheduled release)', () => {
  it('shows stored instants as local date-times, and sends them back only when asked', () => {
    const openAt = new Date(2026, 10, 25, 9, 30).getTime()
    const form = toChallengeForm(source({ openAt, closeAt: null }))
    expect(form).toMatchObject({ openAt: '2026-11-25T09:30', closeAt: '' })
    expect(challengeBody(form, 'StaticAttachment')).not.toHaveProperty('openAt')
    expect(challengeBody(form, 'StaticAttachment', true)).toMatchObject({ openAt, closeAt: null })
  })

  it('wants a close after the open, and real dates', () => {
    const form = toChallengeForm(source())
    expect(
      validateChallengeForm(
        { ...form, openAt: '2026-11-25T10:00', closeAt: '2026-11-25T10:00' },
        'StaticAttachment',
      ),
    ).toEqual({
      closeAt: 'admin.challenge.schedule.error_order',
    })
    expect(validateChallengeForm({ ...form, openAt: 'soon' }, 'StaticAttachment')).toEqual({
      openAt: 'admin.challenge.schedule.error_date',
    })
    expect(validateChallengeForm({ ...form, closeAt: '2026-11-25T10:00' }, 'StaticAttachment')).toEqual({})
  })
})

describe(neighbours, () => {
  it('orders by category then title', () => {
    const list = [
      { id: 1, category: 'Web', title: 'b' },
      { id: 2, category: 'Crypto', title: 'z' },
      { id: 3, category: 'Web', title: 'a' },
    ]
    expect(neighbours(list, 3)).toMatchObject({ previous: { id: 2 }, next: { id: 1 }, index: 1 })
    expect(neighbours(list, 2).previous).toBeUndefined()
  })
})
