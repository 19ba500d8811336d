import assert from 'node:assert/strict'
import { test } from 'node:test'
import { LogWatch, mergeLogGroups } from './server.ts'

test('the same error line from several servers is one group, counted over all, first where it first came', () => {
  const line = (msg: string) => JSON.stringify({ level: 50, msg })
  const one = new LogWatch('server-1')
  const two = new LogWatch('server-2')
  one.line(line('database connection lost'), 5000)
  one.line(line('database connection lost'), 5200)
  two.line(line('database connection lost'), 4900)
  two.line(line('blood notice not posted'), 7000)
  two.line(JSON.stringify({ level: 40, msg: 'only a warning' }), 7100)
  const groups = mergeLogGroups([one, two])
  assert.equal(groups.length, 2)
  const lost = groups.find((g) => g.msg === 'database connection lost')!
  assert.equal(lost.count, 3)
  assert.equal(lost.first, '4.9 s')
  assert.deepEqual(lost.at, [4900, 5000, 5200])
  assert.equal(groups.find((g) => g.msg === 'blood notice not posted')?.count, 1)
})
