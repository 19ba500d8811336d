#!/usr/bin/env node
// Tests must not sleep to let real time pass: they move the injectable clock instead
// (`t.clock.advance` in server tests, `AdminApi.advanceClock` against the built server). This
// finds every timed wait in test code (a Promise around setTimeout, `sleep(`, Playwright's
// `waitForTimeout`, `timers/promises`) and fails on one that does not say why it must be real:
// a `real wait:` comment on its line or the line above, naming what it waits for (a real
// process, container, socket or database coming up or going away; polling between checks).
// Run by `npm run check`; exits 1 and lists the unexplained waits.
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

// The repository, or the folder given as the argument (the script's own test uses one).
const root = path.resolve(process.argv[2] ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '..'))
const skipDirs = new Set(['node_modules', '.git', 'dist', '.builds', '.artifacts', 'test-results'])

/** Test code: the test folders, their harnesses, and unit tests beside the sources. */
const isTestFile = (rel) =>
  /\.(ts|tsx|mjs|js)$/.test(rel) &&
  (/^(server\/test|e2e|cli\/test)\//.test(rel) || /\.test\.(ts|tsx|mjs)$/.test(rel)) &&
  // This check's own test writes such waits on purpose.
  !rel.startsWith('scripts/')

function files(dir, out = []) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) {
      if (!skipDirs.has(entry.name)) files(full, out)
    } else {
      const rel = path.relative(root, full).split(path.sep).join('/')
      if (isTestFile(rel)) out.push(rel)
    }
  }
  return out
}

const WAITS = [
  /new Promise\b[^\n]*\bsetTimeout\(/,
  /\bsleep\s*\(/,
  /\bwaitForTimeout\s*\(/,
  /from ['"](node:)?timers\/promises['"]/,
]
const REASON = /real wait:\s*\S/

const unexplained = []
for (const rel of files(root)) {
  const lines = readFileSync(path.join(root, rel), 'utf8').split('\n')
  lines.forEach((line, i) => {
    if (!WAITS.some((w) => w.test(line))) return
    if (REASON.test(line) || REASON.test(lines[i - 1] ?? '')) return
    unexplained.push(`${rel}:${i + 1}: ${line.trim()}`)
  })
}

if (unexplained.length) {
  console.error(
    `Timed waits in tests without a "real wait:" reason (move the clock instead, see docs/developers/tests.md):\n${unexplained.map((u) => `  ${u}`).join('\n')}`,
  )
  process.exit(1)
}
