import { describe, expect, it } from 'vitest'
import { isPrivate } from './cache'

describe('the persisted client cache', () => {
  it('keeps admin lists and tokens out of the browser storage, and the rest in', () => {
    for (const key of ['/api/admin/users?count=30&skip=0', '/api/admin/logs?level=All', '/api/tokens'])
      expect(isPrivate(key), key).toBe(true)
    for (const key of ['/api/config', '/api/game/1/scoreboard', '/api/account/profile', '/api/edit/games'])
      expect(isPrivate(key), key).toBe(false)
  })
})
