// `node --test scripts/`: the sleep check run on small made-up repositories, as `npm run check` runs it.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { after, test } from 'node:test'
import { fileURLToPath } from 'node:url'

const script = path.join(path.dirname(fileURLToPath(import.meta.url)), 'check-sleeps.mjs')
const made = []
after(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true })
})

function repo(files) {
  const dir = mkdtempSync(path.join(tmpdir(), 'pennant-sleeps-'))
  made.push(dir)
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true })
    writeFileSync(path.join(dir, name), text)
  }
  return spawnSync(process.execPath, [script, dir], { encoding: 'utf8' })
}

test('fails on a sleep in a server test, an e2e wait and a unit test, naming each', () => {
  const run = repo({
    'server/test/a.test.ts': 'it("x", async () => {\n  await new Promise((r) => setTimeout(r, 1500))\n})\n',
    'e2e/tests/b.spec.ts': 'await page.waitForTimeout(10_500)\n',
    'web/src/c.test.ts': "import { setTimeout as sleep } from 'node:timers/promises'\n",
    'cli/test/d.test.ts': 'await sleep(20)\n',
  })
  assert.equal(run.status, 1)
  for (const where of [
    'server/test/a.test.ts:2',
    'e2e/tests/b.spec.ts:1',
    'web/src/c.test.ts:1',
    'cli/test/d.test.ts:1',
  ])
    assert.match(run.stderr, new RegExp(where.replace('.', '\\.')))
})

test('passes a wait that says why it must be real, and code that is not a test', () => {
  const run = repo({
    'server/test/a.test.ts':
      '// real wait: polling a container until it listens\nawait new Promise((r) => setTimeout(r, 200))\n' +
      'await sleep(5) // real wait: a real socket closes\n' +
      'const timer = setTimeout(() => reject(new Error("late")), 1000)\n',
    'server/src/jobs.ts': 'await new Promise((r) => setTimeout(r, 1000))\n',
  })
  assert.equal(run.status, 0, run.stderr)
})

test('a reason must say something', () => {
  const run = repo({ 'e2e/tests/b.spec.ts': '// real wait:\nawait page.waitForTimeout(300)\n' })
  assert.equal(run.status, 1)
})
