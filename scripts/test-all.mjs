#!/usr/bin/env node
// `npm test`: the checks and the three test suites side by side. They share nothing (each test
// file and each e2e run makes its own database, server and build directory), and the end-to-end
// run spends most of its time waiting on the browser and the server, so the web and server suites
// and the checks fit in beside it instead of before it. Each suite's output is buffered and
// printed whole when it ends, so the logs do not interleave; the exit code is non-zero when any
// suite fails. `--only <name,…>` runs a subset (check, web, cli, server, e2e, rehearsal).
import { spawn } from 'node:child_process'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { stripVTControlCharacters } from 'node:util'

/**
 * Server test files that run the same whatever `TEST_DATABASE_URL` says: unit tests of the
 * sources, and tests that start the built server on its embedded database (or build the web
 * client) by design. The second pass on PGlite leaves them out: they ran in the first.
 */
const SAME_ON_EVERY_DATABASE = [
  'src/**',
  'test/containers/**',
  'test/db/pglite-*.test.ts',
  'test/http/built-server.test.ts',
  'test/http/web-build.test.ts',
  'test/ops/data-dir-modes.test.ts',
  'test/ops/npm-start.test.ts',
  'test/transfer/import-memory.test.ts',
]
const onPostgres = Boolean(process.env.TEST_DATABASE_URL)

const SUITES = [
  // The web client built once, as `npm start` builds it, before the suites that run it (the
  // end-to-end harness serves a copy of it; the built-server tests start on it): two builds at
  // once into web/dist would clear each other's half-built folder.
  { name: 'build', args: ['run', '-s', 'ensure-built', '-w', 'web'] },
  // The longest first: it sets the pace, the others fill the time it spends waiting.
  { name: 'e2e', args: ['test', '-w', 'e2e'], after: 'build' },
  {
    name: 'server',
    args: ['test', '-w', 'server', '--', '--exclude', 'test/containers/**'],
    after: 'build',
  },
  // With TEST_DATABASE_URL set the server suite runs on PostgreSQL, then again on the embedded
  // database (PGlite), the default a newcomer's `npm start` runs on: the two must agree.
  ...(onPostgres
    ? [
        {
          name: 'server on PGlite',
          group: 'server',
          args: [
            'test',
            '-w',
            'server',
            '--',
            ...SAME_ON_EVERY_DATABASE.flatMap((glob) => ['--exclude', glob]),
          ],
          env: { TEST_DATABASE_URL: '' },
          after: 'server',
        },
      ]
    : []),
  { name: 'web', args: ['test', '-w', 'web'] },
  { name: 'check', args: ['run', 'check'] },
  // The command-line tool's parser, plan and sync, against a real server of its own.
  { name: 'cli', args: ['test', '-w', 'cli'] },
  // Starting and removing containers adds and removes network interfaces on this host, and
  // Chromium then fails its requests in flight (ERR_NETWORK_CHANGED): so the server's container
  // tests wait until the browser is done.
  {
    name: 'server containers',
    group: 'server',
    args: ['test', '-w', 'server', '--', 'test/containers'],
    after: 'e2e',
  },
  // A three-minute contest against the built server on its embedded database, with the
  // database worker killed once; it fails when its audit does (lost, duplicate or misjudged
  // submissions, 5xx outside the fault). After the browser, whose timing-sensitive screens
  // should not share the cores with it; beside the container tests, which wait on the engine
  // more than they compute (and the audit judges what was stored, not how fast).
  {
    name: 'rehearsal',
    args: [
      'run',
      'rehearse',
      '--',
      ...['--teams', '40', '--minutes', '3', '--faults', 'db-worker'],
      ...['--out', path.join(tmpdir(), `pennant-rehearsal-${process.pid}`)],
    ],
    after: 'e2e',
  },
]

const onlyIndex = process.argv.indexOf('--only')
const only = onlyIndex > 0 ? new Set(process.argv[onlyIndex + 1]?.split(',')) : null
const chosen = SUITES.filter((s) => !only || only.has(s.group ?? s.name))
if (!chosen.length) {
  console.error('nothing to run: --only takes build, check, web, cli, server, e2e, rehearsal')
  process.exit(2)
}

/**
 * The lines of a failed suite's output that name what failed (vitest's FAIL and ×, Playwright's
 * ✘ and its closing list), repeated above the summary: a CI log shown by its tail then still
 * says which test failed, not only which suite.
 */
function failureLines(text) {
  const plain = stripVTControlCharacters(text)
  const named = plain
    .split('\n')
    // Playwright lists a failure's attachments (a screenshot per page, a trace) by path: they
    // matched "failed" and pushed the error itself out of the lines kept.
    .filter((l) => !/test-failed-\d+\.png|\.zip$|attachment #\d|\.artifacts\//.test(l))
    .filter((l) =>
      /(✘|×|\bFAIL\b|\bfailed\b|^\s*\[chromium\] ›|Error:|^\s*(Expected|Received|Locator)\b|^\s*> \d+ \|)/.test(
        l,
      ),
    )
    .map((l) => l.trimEnd())
  const unique = [...new Set(named)]
  return (unique.length ? unique : plain.trimEnd().split('\n')).slice(-25)
}

const started = Date.now()
const seconds = (ms) => `${Math.round(ms / 1000)} s`
const children = new Set()

const running = new Map()
let stopping = false

async function run({ name, args, after, env = {} }) {
  const before = after && running.get(after)
  if (before) await before
  if (stopping) return { name, ok: false, took: 0 }
  return new Promise((resolve) => {
    const t0 = Date.now()
    const child = spawn('npm', args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? '0', ...env },
    })
    children.add(child)
    const chunks = []
    child.stdout.on('data', (c) => chunks.push(c))
    child.stderr.on('data', (c) => chunks.push(c))
    child.on('close', (code, signal) => {
      children.delete(child)
      const ok = code === 0
      const took = Date.now() - t0
      process.stdout.write(
        `\n===== ${name}: ${ok ? 'passed' : `FAILED (${signal ?? `exit ${code}`})`} in ${seconds(took)} =====\n`,
      )
      const output = Buffer.concat(chunks)
      process.stdout.write(output)
      resolve({ name, ok, took, failures: ok ? [] : failureLines(output.toString()) })
    })
  })
}

// A stop of the runner stops the suites (the e2e harness then tears its server and database down).
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    stopping = true
    for (const child of children) child.kill(signal)
  })
}

const names = new Set(chosen.map((s) => s.name))
console.log(
  `running ${chosen.map((s) => s.name + (names.has(s.after) ? ` (after ${s.after})` : '')).join(', ')}; each prints when it ends`,
)
for (const suite of chosen) running.set(suite.name, run(suite))
const results = await Promise.all(running.values())
for (const r of results.filter((r) => r.failures?.length)) {
  console.log(`\n===== what failed in ${r.name} =====`)
  for (const line of r.failures) console.log(`  ${line.slice(0, 240)}`)
}
console.log(`\n===== summary (${seconds(Date.now() - started)} in all) =====`)
for (const r of results)
  console.log(`  ${r.ok ? 'passed' : 'FAILED'}  ${r.name.padEnd(7)} ${seconds(r.took)}`)
process.exit(results.every((r) => r.ok) ? 0 : 1)
