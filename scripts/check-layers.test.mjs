// `node --test scripts/`: the layer check run on small made-up source trees, as `npm run check`
// runs it on the server and the web client.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { after, test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { checkTree, importsOf } from './check-layers.mjs'

const script = path.join(path.dirname(fileURLToPath(import.meta.url)), 'check-layers.mjs')
const made = []
after(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true })
})

function tree(files) {
  const dir = mkdtempSync(path.join(tmpdir(), 'pennant-layers-'))
  made.push(dir)
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true })
    writeFileSync(path.join(dir, name), text)
  }
  return dir
}

// A server in miniature: rules at the bottom, then http, then modules, then the app.
const layers = [
  { name: 'engine', files: ['engine/'] },
  { name: 'http', files: ['http/'] },
  { name: 'modules', files: ['modules/*'], parts: { account: [], game: ['account'] } },
  { name: 'app', files: ['app.ts'] },
]
const good = {
  'engine/score.ts': 'export const score = 1\n',
  'http/errors.ts': "import { score } from '../engine/score.ts'\nexport const fail = () => score\n",
  'modules/account/users.ts': "import { fail } from '../../http/errors.ts'\nexport const user = fail\n",
  'modules/game/play.ts':
    "import { user } from '../account/users.ts'\nimport type { X } from './types.ts'\nexport const play = user\n",
  'modules/game/types.ts': "import type { play } from './play.ts'\nexport type X = typeof play\n",
  'app.ts':
    "import { play } from './modules/game/play.ts'\nexport const app = () => import('./http/errors.ts')\n",
}
const check = (files, more = layers) => checkTree({ name: 'server', root: tree(files), layers: more })

test('imports that run downward, to declared parts, pass (a type-only cycle too)', () => {
  assert.deepEqual(check(good), [])
})

test('an import from a lower layer into a higher one fails, naming file, import and rule', () => {
  const problems = check({
    ...good,
    'http/reply.ts': "import { user } from '../modules/account/users.ts'\nexport const reply = user\n",
  })
  assert.deepEqual(problems, [
    "http/reply.ts:1 imports '../modules/account/users.ts': http may not import modules, a higher layer " +
      '(http may import engine, http)',
  ])
})

test('a type-only import upward fails too: the rule is about what a layer knows', () => {
  const problems = check({
    ...good,
    'engine/score.ts': "import type { X } from '../modules/game/types.ts'\n",
  })
  assert.equal(problems.length, 1)
  assert.match(
    problems[0],
    /^engine\/score\.ts:1 imports '..\/modules\/game\/types.ts' \(type\): engine may not import modules/,
  )
})

test('a part importing a part it does not declare fails', () => {
  const problems = check({
    ...good,
    'modules/account/users.ts': "import type { X } from '../game/types.ts'\nexport const user = 1\n",
  })
  assert.deepEqual(problems, [
    "modules/account/users.ts:1 imports '../game/types.ts' (type): modules part account does not declare game " +
      '(it declares none; scripts/layers.mjs)',
  ])
})

test('declared parts in a circle fail, and so do an unused declaration and an undeclared part', () => {
  const circle = layers.map((l) => (l.parts ? { ...l, parts: { account: ['game'], game: ['account'] } } : l))
  assert.deepEqual(check(good, circle), [
    'server: the declared modules parts depend on each other in a circle: account → game → account',
    'server: modules part account declares game but imports nothing of it (scripts/layers.mjs)',
  ])
  const problems = check({ ...good, 'modules/team/team.ts': "import { user } from '../account/users.ts'\n" })
  assert.deepEqual(problems, [
    "modules/team/team.ts:1 imports '../account/users.ts': modules part team is not declared in scripts/layers.mjs",
  ])
})

test('a cycle of files fails, through a lazy import() too; a file in no layer fails', () => {
  const problems = check({
    ...good,
    'modules/game/play.ts':
      "import { user } from '../account/users.ts'\nimport { Y } from './types.ts'\nexport const play = [user, Y]\n",
    'modules/game/types.ts': "import { play } from './play.ts'\nexport const Y = () => play\n",
    'modules/account/users.ts': "export const user = 1\nexport const later = () => import('./lazy.ts')\n",
    'modules/account/lazy.ts': "import { user } from './users.ts'\nexport default user\n",
    'scripts.ts': 'export {}\n',
  })
  assert.deepEqual(problems.sort(), [
    'import cycle: modules/account/lazy.ts → modules/account/users.ts → modules/account/lazy.ts (dynamic)',
    'import cycle: modules/game/play.ts → modules/game/types.ts → modules/game/play.ts',
    'scripts.ts: in no layer (add its folder to a layer in scripts/layers.mjs)',
  ])
})

test('imports are read as TypeScript: comments, strings and inline type modifiers are not mistaken', () => {
  const file = path.join(tree({ 'x.tsx': '' }), 'x.tsx')
  const found = importsOf(
    file,
    [
      "import type { A } from './a'",
      "import { type B } from './b'", // still loads ./b under verbatimModuleSyntax
      "export type { C } from './c'",
      "export * from './d'",
      "// import e from './e'",
      'const s = "import f from \'./f\'"',
      "const g = () => import('./g')",
      // not a literal: cannot be followed
      `const h = (name: string) => import(\`./h/\${name}\`)`,
      'export const el = <div>{s}</div>',
    ].join('\n'),
  )
  assert.deepEqual(
    found.map((i) => `${i.kind} ${i.spec}`),
    ['type ./a', 'value ./b', 'type ./c', 'value ./d', 'dynamic ./g'],
  )
})

test('the command fails with the problems listed, and passes on a clean repository', () => {
  const layersFile = (root) =>
    `export const trees = [{ name: 'server', root: '${root}', aliases: {}, layers: ${JSON.stringify(layers)} }]\n`
  const files = (extra) =>
    Object.fromEntries(
      Object.entries({ ...good, ...extra }).map(([name, text]) => [path.join('server/src', name), text]),
    )
  const clean = tree({ ...files({}), 'scripts/layers.mjs': layersFile('server/src') })
  const ok = spawnSync(process.execPath, [script, clean], { encoding: 'utf8' })
  assert.equal(ok.status, 0, ok.stderr)
  const dirty = tree({
    ...files({ 'engine/score.ts': "import '../app.ts'\n" }),
    'scripts/layers.mjs': layersFile('server/src'),
  })
  const bad = spawnSync(process.execPath, [script, dirty], { encoding: 'utf8' })
  assert.equal(bad.status, 1)
  assert.match(bad.stderr, /server\/src\/engine\/score\.ts:1 imports '..\/app.ts': engine may not import app/)
})
