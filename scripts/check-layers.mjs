#!/usr/bin/env node
// `npm run check`: imports run downward only. Reads every TypeScript file of a source tree, finds
// its imports (static, `export … from`, and `import('…')` with a literal path) with the parser the
// web build already uses (oxc, through rolldown), and fails on:
//   - an import from a lower layer into a higher one;
//   - an import between two parts of one layer (two server modules, two web features) that the
//     importing part does not declare (the declared dependencies must themselves have no cycle,
//     and each must be used);
//   - a cycle of imports between files.
// A type-only import (`import type`, `export type … from`) counts for the first two rules: knowing
// a higher layer's types is still knowing the higher layer. It does not count for file cycles: the
// compiler erases it (`verbatimModuleSyntax`), so it cannot change the order files load in.
// The layers themselves are in `scripts/layers.mjs` and described in docs/developers/architecture.md.
// `node scripts/check-layers.mjs [repository]` checks the server and the web client of a repository
// (this one by default).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { parseSync } from 'rolldown/utils'

const CODE = /\.(ts|tsx|mts|mjs|js|jsx)$/
const TRY = ['', '.ts', '.tsx', '.js', '.mjs', '/index.ts', '/index.tsx']

function sourceFiles(dir) {
  const out = []
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name)
    if (statSync(full).isDirectory()) out.push(...sourceFiles(full))
    else if (CODE.test(name) && !name.endsWith('.d.ts')) out.push(full)
  }
  return out
}

/** The imports of one file: `{ spec, kind: 'value' | 'type' | 'dynamic', line }`. */
export function importsOf(file, text = readFileSync(file, 'utf8')) {
  const lang = file.endsWith('x')
    ? file.endsWith('.jsx')
      ? 'jsx'
      : 'tsx'
    : file.endsWith('.ts')
      ? 'ts'
      : 'js'
  const parsed = parseSync(file, text, { lang })
  if (parsed.errors.length) throw new Error(`${file}: cannot parse: ${parsed.errors[0].message}`)
  const line = (offset) => text.slice(0, offset).split('\n').length
  // `import { type A } from` still loads the module under verbatimModuleSyntax; only the
  // declaration-level form is erased.
  const typeOnly = (start, entries) =>
    entries.length > 0 &&
    entries.every((e) => e.isType) &&
    /^(import|export)\s+type\b/.test(text.slice(start))
  const found = []
  for (const i of parsed.module.staticImports)
    found.push({
      spec: i.moduleRequest.value,
      kind: typeOnly(i.start, i.entries) ? 'type' : 'value',
      line: line(i.start),
    })
  for (const e of parsed.module.staticExports) {
    const from = e.entries.filter((x) => x.moduleRequest)
    if (from.length)
      found.push({
        spec: from[0].moduleRequest.value,
        kind: typeOnly(e.start, from) ? 'type' : 'value',
        line: line(e.start),
      })
  }
  for (const d of parsed.module.dynamicImports) {
    const literal = /^(['"`])([^'"`$]*)\1$/.exec(text.slice(d.moduleRequest.start, d.moduleRequest.end))
    if (literal) found.push({ spec: literal[2], kind: 'dynamic', line: line(d.start) })
  }
  return found
}

/** The file an import names, inside the tree, or null (packages, files outside the tree). */
function resolve(root, aliases, from, spec) {
  const bare = spec.replace(/\?.*$/, '')
  let target = null
  if (bare.startsWith('.')) target = path.resolve(path.dirname(from), bare)
  else
    for (const [prefix, dir] of Object.entries(aliases))
      if (bare.startsWith(prefix)) target = path.resolve(root, dir, bare.slice(prefix.length))
  if (!target || path.relative(root, target).startsWith('..')) return null
  for (const end of TRY) {
    const file = target + end
    if (existsSync(file) && statSync(file).isFile()) return file
  }
  return null
}

/**
 * Which part of a layer a file is, or undefined when `pattern` does not match it. A pattern is a
 * folder (`http/`: the part is `http`), one file (`main.ts`: `main`) or a folder of parts
 * (`modules/*`: each folder or file in it is a part, `modules/game/…` is `game`).
 */
function partOf(rel, pattern) {
  if (pattern.endsWith('/*')) {
    const folder = pattern.slice(0, -1)
    return rel.startsWith(folder) ? rel.slice(folder.length).split('/')[0].replace(CODE, '') : undefined
  }
  if (pattern.endsWith('/')) return rel.startsWith(pattern) ? pattern.slice(0, -1) : undefined
  return rel === pattern ? pattern.replace(CODE, '') : undefined
}

/** Where a file sits: its layer (index and name) and, in a layer made of parts, its part. */
function placeOf(layers, rel) {
  for (const [index, layer] of layers.entries())
    for (const pattern of layer.files) {
      const part = partOf(rel, pattern)
      if (part !== undefined) return { index, layer: layer.name, part: layer.parts ? part : null }
    }
  return null
}

/** The cycles of a graph (Map of node → Set of nodes): one path per strongly connected set. */
function cycles(graph) {
  const index = new Map()
  const low = new Map()
  const stack = []
  const onStack = new Set()
  const found = []
  let next = 0
  const visit = (v) => {
    index.set(v, next)
    low.set(v, next++)
    stack.push(v)
    onStack.add(v)
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w)
        low.set(v, Math.min(low.get(v), low.get(w)))
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)))
    }
    if (low.get(v) === index.get(v)) {
      const set = []
      let w
      do {
        w = stack.pop()
        onStack.delete(w)
        set.push(w)
      } while (w !== v)
      if (set.length > 1 || graph.get(v)?.has(v)) found.push(pathThrough(graph, new Set(set), set.sort()[0]))
    }
  }
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v)
  return found
}

/** A shortest way from `start` back to itself inside one strongly connected set. */
function pathThrough(graph, set, start) {
  const prev = new Map()
  const queue = [start]
  while (queue.length) {
    const v = queue.shift()
    for (const w of [...(graph.get(v) ?? [])].sort()) {
      if (!set.has(w)) continue
      if (w === start) {
        const way = [start]
        for (let x = v; x !== start; x = prev.get(x)) way.splice(1, 0, x)
        return [...way, start]
      }
      if (!prev.has(w)) {
        prev.set(w, v)
        queue.push(w)
      }
    }
  }
  return [start, start]
}

/**
 * Checks one tree. `tree`: `{ name, root, aliases, layers }`, layers bottom first, each
 * `{ name, files: [pattern…], parts?: { part: [parts it may import] } }`. Returns the problems,
 * each one line naming the file, the import and the rule.
 */
export function checkTree(tree) {
  const root = path.resolve(tree.root)
  const problems = []
  const { layers } = tree
  const below = (i) => layers.slice(0, i + 1).map((l) => l.name)

  // The declared parts of a layer must exist and must not depend on each other in a circle.
  for (const layer of layers.filter((l) => l.parts)) {
    const graph = new Map(Object.entries(layer.parts).map(([p, deps]) => [p, new Set(deps)]))
    for (const [part, deps] of graph)
      for (const dep of deps)
        if (!graph.has(dep))
          problems.push(`${tree.name}: ${layer.name} part ${part} declares ${dep}, which is not a part`)
    for (const way of cycles(graph))
      problems.push(
        `${tree.name}: the declared ${layer.name} parts depend on each other in a circle: ${way.join(' → ')}`,
      )
  }

  const used = new Set()
  const files = sourceFiles(root)
  const runtime = new Map(files.map((f) => [f, new Set()]))
  const edgeKind = new Map()
  for (const file of files) {
    const rel = path.relative(root, file).split(path.sep).join('/')
    const from = placeOf(layers, rel)
    const where = path.join(tree.label ?? '', rel)
    if (!from) {
      problems.push(`${where}: in no layer (add its folder to a layer in scripts/layers.mjs)`)
      continue
    }
    for (const imp of importsOf(file)) {
      const target = resolve(root, tree.aliases ?? {}, file, imp.spec)
      if (!target) continue
      const to = placeOf(layers, path.relative(root, target).split(path.sep).join('/'))
      const at = `${where}:${imp.line} imports '${imp.spec}'${imp.kind === 'value' ? '' : ` (${imp.kind})`}`
      if (!to) continue // reported as a file in no layer, if it is code
      if (to.index > from.index)
        problems.push(
          `${at}: ${from.layer} may not import ${to.layer}, a higher layer (${from.layer} may import ${below(from.index).join(', ')})`,
        )
      else if (to.index === from.index && from.part !== to.part && from.part !== null) {
        const allowed = layers[from.index].parts[from.part]
        if (!allowed)
          problems.push(`${at}: ${from.layer} part ${from.part} is not declared in scripts/layers.mjs`)
        else if (allowed.includes(to.part)) used.add(`${from.index} ${from.part} ${to.part}`)
        else
          problems.push(
            `${at}: ${from.layer} part ${from.part} does not declare ${to.part} ` +
              `(it declares ${allowed.length ? allowed.join(', ') : 'none'}; scripts/layers.mjs)`,
          )
      }
      if (imp.kind !== 'type' && runtime.has(target)) {
        runtime.get(file).add(target)
        edgeKind.set(`${file}\0${target}`, imp.kind)
      }
    }
  }

  // A declared dependency nothing uses would let the next import through unnoticed.
  for (const [index, layer] of layers.entries())
    for (const [part, deps] of Object.entries(layer.parts ?? {}))
      for (const dep of deps)
        if (!used.has(`${index} ${part} ${dep}`))
          problems.push(
            `${tree.name}: ${layer.name} part ${part} declares ${dep} but imports nothing of it (scripts/layers.mjs)`,
          )

  for (const way of cycles(runtime)) {
    const steps = way.map((f, i) => {
      const name = path.join(tree.label ?? '', path.relative(root, f))
      const kind = i > 0 && edgeKind.get(`${way[i - 1]}\0${f}`) === 'dynamic' ? ' (dynamic)' : ''
      return name + kind
    })
    problems.push(`import cycle: ${steps.join(' → ')}`)
  }
  return problems
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const repo = path.resolve(process.argv[2] ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '..'))
  const { trees } = await import(pathToFileURL(path.join(repo, 'scripts/layers.mjs')).href)
  let problems = []
  for (const tree of trees)
    problems = problems.concat(checkTree({ ...tree, root: path.join(repo, tree.root), label: tree.root }))
  if (problems.length) {
    console.error(`${problems.length} import(s) against the layers (docs/developers/architecture.md):`)
    for (const p of problems) console.error(`  ${p}`)
    process.exit(1)
  }
  console.log(`layers: imports run downward in ${trees.map((t) => t.name).join(' and ')}`)
}
