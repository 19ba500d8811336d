// `node --test scripts/`: the link check run on small made-up repositories, as `npm run check` runs it.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { after, test } from 'node:test'
import { fileURLToPath } from 'node:url'

const script = path.join(path.dirname(fileURLToPath(import.meta.url)), 'check-links.mjs')
const made = []
after(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true })
})

function repo(files) {
  const dir = mkdtempSync(path.join(tmpdir(), 'pennant-links-'))
  made.push(dir)
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true })
    writeFileSync(path.join(dir, name), text)
  }
  return spawnSync(process.execPath, [script, dir], { encoding: 'utf8' })
}

const docs = {
  'docs/api.md': '# API\n\n## Live updates (hubs)\n\n## Live updates (hubs)\n',
  'docs/operators/deployment.md': '# Deployment\n',
}

test('links to files and headings that exist pass', () => {
  const run = repo({
    ...docs,
    'README.md':
      '# Pennant\n\n[api](docs/api.md) [hubs](docs/api.md#live-updates-hubs) ' +
      '[again](docs/api.md#live-updates-hubs-1) [here](#pennant) [web](https://example.org/x.md) ' +
      '[folder](docs/operators/)\n',
    'docs/README.md': '[deployment](operators/deployment.md) [up](../README.md)\n',
  })
  assert.equal(run.status, 0, run.stderr)
  assert.match(run.stdout, /7 relative links checked, all resolve/)
})

test('a missing file, a missing heading and a link out of the repository fail, each named', () => {
  const run = repo({
    ...docs,
    'README.md':
      '# Pennant\n\n[gone](docs/gone.md)\n[heading](docs/api.md#no-such-heading)\n' +
      '[spec](../shared/spec/api-contract.md)\n',
  })
  assert.equal(run.status, 1)
  assert.match(run.stderr, /3 broken link/)
  assert.match(run.stderr, /README\.md:3: docs\/gone\.md \(no such file\)/)
  assert.match(run.stderr, /README\.md:4: docs\/api\.md#no-such-heading \(no such heading\)/)
  assert.match(run.stderr, /README\.md:5: \.\.\/shared\/spec\/api-contract\.md \(outside the repository\)/)
})

test('links inside code are not links', () => {
  const run = repo({
    'README.md': '# Pennant\n\n`[inline](gone.md)`\n\n```md\n[fenced](gone.md)\n```\n',
  })
  assert.equal(run.status, 0, run.stderr)
})
