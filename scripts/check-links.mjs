#!/usr/bin/env node
// Every relative link in the repository's Markdown files must resolve: the file (or folder) it
// names exists inside the repository, and a `#fragment` names a heading of that Markdown file
// (GitHub's anchors). Web links are not fetched. Run by `npm run check`; exits 1 on a broken link.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

// The repository, or the folder given as the argument (the script's own test uses one).
const root = path.resolve(process.argv[2] ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '..'))
const skipDirs = new Set(['node_modules', '.git', 'dist', 'data', '.artifacts', 'test-results'])

function markdownFiles(dir, out = []) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (!skipDirs.has(entry.name)) markdownFiles(path.join(dir, entry.name), out)
    } else if (entry.name.endsWith('.md')) {
      out.push(path.join(dir, entry.name))
    }
  }
  return out
}

/** The text outside fenced code blocks and inline code, line by line. */
function proseLines(text) {
  const lines = []
  let fence = null
  for (const line of text.split('\n')) {
    const open = /^\s*(`{3,}|~{3,})/.exec(line)
    if (fence) {
      if (open && open[1][0] === fence[0] && open[1].length >= fence.length) fence = null
      lines.push('')
    } else if (open) {
      fence = open[1]
      lines.push('')
    } else {
      lines.push(line.replace(/(`+)[^`]*?\1/g, ''))
    }
  }
  return lines
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
const anchorCache = new Map()
function anchors(file) {
  let set = anchorCache.get(file)
  if (set) return set
  set = new Set()
  const seen = new Map()
  let fence = null
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const open = /^\s*(`{3,}|~{3,})/.exec(line)
    if (fence) {
      if (open && open[1][0] === fence[0] && open[1].length >= fence.length) fence = null
      continue
    }
    if (open) {
      fence = open[1]
      continue
    }
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)
    if (!heading) continue
    const text = heading[1]
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/<[^>]+>/g, '')
      .toLowerCase()
    const slug = text.replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, '').replace(/\s/g, '-')
    const n = seen.get(slug) ?? 0
    seen.set(slug, n + 1)
    set.add(n === 0 ? slug : `${slug}-${n}`)
  }
  anchorCache.set(file, set)
  return set
}

const linkPattern =
  /!?\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)|^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/g

const broken = []
let checked = 0
for (const file of markdownFiles(root)) {
  const rel = path.relative(root, file)
  proseLines(readFileSync(file, 'utf8')).forEach((line, i) => {
    for (const match of line.matchAll(linkPattern)) {
      const target = match[1] ?? match[2]
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue // https:, mailto:, …
      checked++
      const where = `${rel}:${i + 1}: ${target}`
      const [rawPath, fragment] = target.split('#', 2)
      const decoded = decodeURIComponent(rawPath)
      const resolved = decoded === '' ? file : path.resolve(path.dirname(file), decoded)
      const inRepo = path.relative(root, resolved)
      if (inRepo.startsWith('..') || path.isAbsolute(inRepo)) {
        broken.push(`${where} (outside the repository)`)
        continue
      }
      if (!existsSync(resolved)) {
        broken.push(`${where} (no such file)`)
        continue
      }
      if (fragment && resolved.endsWith('.md') && statSync(resolved).isFile()) {
        if (!anchors(resolved).has(fragment.toLowerCase())) broken.push(`${where} (no such heading)`)
      }
    }
  })
}

if (broken.length > 0) {
  console.error(`${broken.length} broken link(s) in Markdown files:`)
  for (const where of broken) console.error(`  ${where}`)
  process.exit(1)
}
console.log(`links: ${checked} relative links checked, all resolve`)
