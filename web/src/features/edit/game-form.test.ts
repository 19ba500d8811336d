import { describe, expect, it } from 'vitest'
import { fromForm, type GameModel, toForm, validateGameForm } from './game-form'

const game = (): GameModel => ({
  title: 'Spring CTF',
  hidden: true,
  summary: 's',
  content: 'c',
  acceptWithoutReview: false,
  writeupRequired: false,
  writeupDeadline: new Date(2025, 3, 3, 12, 0).getTime(),
  writeupNote: '',
  inviteCode: null,
  divisions: null,
  teamMemberCountLimit: 0,
  containerCountLimit: 3,
  practiceMode: true,
  start: new Date(2025, 3, 1, 9, 0).getTime(),
  end: new Date(2025, 3, 2, 9, 0).getTime(),
  bloodBonus: 52459530,
})

describe('the scoreboard freeze fields', () => {
  it('want the freeze within start..end and the reveal after it', () => {
    const form = toForm(game())
    expect(validateGameForm({ ...form, freezeAt: '2025-04-02T08:00' })).toEqual({})
    expect(validateGameForm({ ...form, freezeAt: '2025-04-01T08:00' })).toEqual({
      freezeAt: 'admin.game.freeze.error_outside',
    })
    expect(validateGameForm({ ...form, freezeAt: '2025-04-02T09:00' }).freezeAt).toBe(
      'admin.game.freeze.error_outside',
    )
    expect(
      validateGameForm({ ...form, freezeAt: '2025-04-02T08:00', revealAt: '2025-04-02T07:00' }).revealAt,
    ).toBe('admin.game.freeze.error_reveal_before')
    expect(validateGameForm({ ...form, revealAt: '2025-04-02T10:00' }).revealAt).toBe(
      'admin.game.freeze.error_reveal_alone',
    )
    expect(validateGameForm({ ...form, freezeAt: 'soon' }).freezeAt).toBe('admin.game.error.date')
  })
})

describe(validateGameForm, () => {
  it('accepts a game as the server gave it', () => {
    expect(validateGameForm(toForm(game()))).toEqual({})
  })

  it('needs a title and an end after the start', () => {
    const form = { ...toForm(game()), title: '  ', end: toForm(game()).start }
    expect(validateGameForm(form)).toEqual({
      title: 'admin.game.error.title_required',
      end: 'admin.game.error.end_before_start',
    })
  })

  it('checks dates, the writeup deadline, limits, the invite code and the bonus', () => {
    const form = {
      ...toForm(game()),
      start: 'soon',
      writeupRequired: true,
      writeupDeadline: '',
      teamMemberCountLimit: -1,
      containerCountLimit: '',
      inviteCode: 'x'.repeat(33),
      divisions: ['x'.repeat(32)],
      bloodBonus: [5, 3, 200] as [number, number, number],
    }
    expect(Object.keys(validateGameForm(form)).sort()).toEqual(
      [
        'start',
        'writeupDeadline',
        'teamMemberCountLimit',
        'containerCountLimit',
        'inviteCode',
        'divisions',
        'bloodBonus',
      ].sort(),
    )
  })
})

describe(fromForm, () => {
  it('round-trips a game and turns the blank invite code into null', () => {
    const g = game()
    expect(fromForm(toForm(g), g)).toEqual({ ...g, divisions: [], freezeAt: null, revealAt: null })
  })

  it('keeps a stored freeze time to the millisecond while its text is unchanged', () => {
    const g = { ...game(), freezeAt: new Date(2025, 3, 2, 8, 0, 42, 7).getTime() }
    expect(fromForm(toForm(g), g).freezeAt).toBe(g.freezeAt)
    const moved = fromForm({ ...toForm(g), freezeAt: '2025-04-02T08:30' }, g)
    expect(moved.freezeAt).toBe(new Date(2025, 3, 2, 8, 30).getTime())
    expect(fromForm({ ...toForm(g), freezeAt: '' }, g).freezeAt).toBeNull()
  })

  it('trims and de-duplicates divisions and packs the bonus percentages', () => {
    const g = game()
    const body = fromForm(
      { ...toForm(g), divisions: [' Open ', 'Open', 'Students', ''], bloodBonus: [10, 0, 0] },
      g,
    )
    expect(body.divisions).toEqual(['Open', 'Students'])
    expect(body.bloodBonus).toBe(100 * 2 ** 20)
  })
})
