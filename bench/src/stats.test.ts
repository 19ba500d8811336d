import assert from 'node:assert/strict'
import { test } from 'node:test'
import { median } from './stats.ts'

test('the median of an even count is the mean of the middle two, of an odd count the middle one', () => {
  assert.equal(median([10, 1, 9, 2, 8, 3, 7, 4, 6, 5]), 5.5)
  assert.equal(median([3, 1, 2]), 2)
  assert.equal(median([4]), 4)
  assert.ok(Number.isNaN(median([])))
})
