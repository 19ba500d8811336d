// Generates `src/api/schema.gen.ts` from the server's OpenAPI document, in the shape
// openapi-fetch expects (`paths` → method → parameters / requestBody / responses).
// Written here rather than with openapi-typescript because that tool needs TypeScript 5's
// compiler API; our schemas use a small JSON-Schema subset, covered below.
import { execFileSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const here = path.dirname(fileURLToPath(import.meta.url))
const root = path.resolve(here, '../..')
const out = path.resolve(here, '../src/api/schema.gen.ts')

const doc = JSON.parse(
  execFileSync('npm', ['run', '-s', 'openapi', '-w', 'server'], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  }),
)

/** Named enums (TypeBox titles) are emitted once and referenced by name. */
const enums = new Map()
const key = (k) => (/^[A-Za-z_$][\w$]*$/.test(k) ? k : JSON.stringify(k))
const pad = (depth) => '  '.repeat(depth)

function type(schema, depth = 0) {
  if (!schema || Object.keys(schema).length === 0) return 'unknown'
  const t = typeWithoutNull(schema, depth)
  return schema.nullable ? `${t} | null` : t
}

function typeWithoutNull(s, depth) {
  if (s.enum) {
    const union = s.enum.map((v) => JSON.stringify(v)).join(' | ')
    if (s.title && /^[A-Z]\w*$/.test(s.title)) {
      enums.set(s.title, s.enum)
      return s.title
    }
    return union
  }
  if (s.const !== undefined) return JSON.stringify(s.const)
  if (s.anyOf || s.oneOf) {
    const parts = [...new Set((s.anyOf ?? s.oneOf).map((x) => type(x, depth)))]
    return parts.length === 1 ? parts[0] : `(${parts.join(' | ')})`
  }
  if (s.allOf) return s.allOf.map((x) => type(x, depth)).join(' & ')
  switch (s.type) {
    case 'string':
      return s.format === 'binary' ? 'Blob' : 'string'
    case 'integer':
    case 'number':
      return 'number'
    case 'boolean':
      return 'boolean'
    case 'null':
      return 'null'
    case 'array':
      return `${wrap(type(s.items, depth))}[]`
    case 'object':
    case undefined: {
      const props = s.properties ?? {}
      const names = Object.keys(props)
      const extra = s.additionalProperties
      if (names.length === 0) {
        if (extra && typeof extra === 'object') return `Record<string, ${type(extra, depth)}>`
        return s.type === 'object' ? 'Record<string, unknown>' : 'unknown'
      }
      const req = new Set(s.required ?? [])
      const lines = names.map((n) => {
        const p = props[n]
        const doc = p.description ? `${pad(depth + 1)}/** ${p.description.replace(/\*\//g, '*\\/')} */\n` : ''
        return `${doc}${pad(depth + 1)}${key(n)}${req.has(n) ? '' : '?'}: ${type(p, depth + 1)}`
      })
      return `{\n${lines.join('\n')}\n${pad(depth)}}`
    }
    default:
      return 'unknown'
  }
}

const wrap = (t) => (/^[\w"]+$/.test(t) || t.startsWith('{') || t.startsWith('Record<') ? t : `(${t})`)

function content(c, depth) {
  if (!c) return 'never'
  const entries = Object.entries(c).map(
    ([mime, v]) => `${pad(depth + 1)}${JSON.stringify(mime)}: ${type(v.schema, depth + 1)}`,
  )
  return `{\n${entries.join('\n')}\n${pad(depth)}}`
}

function params(list, where, depth) {
  const ps = (list ?? []).filter((p) => p.in === where)
  if (ps.length === 0) return 'never'
  const lines = ps.map(
    (p) => `${pad(depth + 1)}${key(p.name)}${p.required ? '' : '?'}: ${type(p.schema, depth + 1)}`,
  )
  return `{\n${lines.join('\n')}\n${pad(depth)}}`
}

const methods = ['get', 'put', 'post', 'delete', 'patch']
const lines = []
for (const [p, item] of Object.entries(doc.paths)) {
  lines.push(`  ${JSON.stringify(p)}: {`)
  lines.push('    parameters: { query?: never; header?: never; path?: never; cookie?: never }')
  for (const m of methods) {
    const op = item[m]
    if (!op) {
      lines.push(`    ${m}?: never`)
      continue
    }
    if (op.summary) lines.push(`    /** ${op.summary.replace(/\*\//g, '*\\/')} */`)
    lines.push(`    ${m}: {`)
    const q = params(op.parameters, 'query', 4)
    const pp = params(op.parameters, 'path', 4)
    const hasRequiredQuery = (op.parameters ?? []).some((x) => x.in === 'query' && x.required)
    lines.push('      parameters: {')
    lines.push(`        query${hasRequiredQuery ? '' : '?'}: ${q}`)
    lines.push('        header?: never')
    lines.push(`        path${pp === 'never' ? '?' : ''}: ${pp}`)
    lines.push('        cookie?: never')
    lines.push('      }')
    if (op.requestBody) {
      lines.push(
        `      requestBody${op.requestBody.required ? '' : '?'}: { content: ${content(op.requestBody.content, 4)} }`,
      )
    } else {
      lines.push('      requestBody?: never')
    }
    lines.push('      responses: {')
    for (const [code, r] of Object.entries(op.responses ?? {})) {
      lines.push(
        `        ${code}: { headers: { [name: string]: unknown }; content: ${content(r.content, 4)} }`,
      )
    }
    lines.push('      }')
    lines.push('    }')
  }
  lines.push('  }')
}

const enumLines = [...enums].map(([name, values]) => {
  const union = values.map((v) => JSON.stringify(v)).join(' | ')
  return `export type ${name} = ${union}\nexport const ${name}Values = ${JSON.stringify(values)} as const satisfies readonly ${name}[]`
})

const text = `// Generated by web/scripts/gen-api.mjs from the server's OpenAPI document. Do not edit.
/* eslint-disable */

${enumLines.join('\n\n')}

export interface paths {
${lines.join('\n')}
}
`

let previous = ''
try {
  previous = readFileSync(out, 'utf8')
} catch {}
if (previous !== text) writeFileSync(out, text)
console.log(
  `api schema: ${Object.keys(doc.paths).length} paths, ${enums.size} enums → ${path.relative(root, out)}`,
)
