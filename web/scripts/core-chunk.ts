import { readFileSync } from 'node:fs'
import path from 'node:path'

/**
 * How the client is cut into files (vite.config.ts). First, which modules go into the one `core`
 * chunk that every first load fetches: React, the router, SWR, the API client, the Mantine
 * pieces the account screens use, and the app's own frame.
 *
 * Left to itself the bundler cuts these into ~60 small shared chunks (everything the entry
 * shares with some page gets its own file), and ~60 files compress ~15 KB worse than one.
 * Only modules the first load needs anyway belong here: anything listed that only lazy pages
 * use becomes part of every first load. Pages' own components stay out.
 */
const CORE = new RegExp(
  [
    String.raw`node_modules[\\/](react|react-dom|scheduler|react-router|swr|openapi-fetch|use-sync-external-store|dequal|clsx|@mantine[\\/]store)[\\/]`,
    // Mantine's hooks, but those only the frame's and the game's or admin's components use
    // (sliders and colour pickers drag, Collapse, Pagination, copy buttons...): ~3 KB gzip that
    // the account screens never run.
    String.raw`@mantine[\\/]hooks[\\/](?!esm[\\/](use-drag|use-collapse|use-long-press|use-debounced-callback|use-debounced-value|use-pagination|use-resize-observer|use-clipboard|use-mutation-observer)[\\/])`,
    String.raw`@mantine[\\/]core[\\/]esm[\\/]core[\\/]`,
    // Icons: the shared component factory, and the few the account screens show.
    String.raw`@tabler[\\/]icons-react[\\/]dist[\\/]esm[\\/](createReactComponent|defaultAttributes|icons[\\/](IconLanguage|IconSelector|IconSun|IconMoon|IconUpload|IconArrowLeft|IconKey|IconLogout|IconCheck|IconX)\.mjs)`,
    String.raw`@mantine[\\/]core[\\/]esm[\\/]components[\\/](Box|Input|InputBase|Button|ActionIcon|UnstyledButton|Text|Title|Group|Stack|Paper|Center|Loader|PasswordInput|TextInput|CloseButton|Anchor|Transition|VisuallyHidden|Flex|Alert)[\\/]`,
    // The pseudo-locales (development only) stay in their own chunk. Of utils/ and hooks/, only
    // what the account screens use: date formats, the unsaved-changes guard and the build info
    // belong to the frame's, the game's and the admin's pages.
    String.raw`web[\\/]src[\\/](api|i18n[\\/](?!pseudo)[a-z-]+\.ts|utils[\\/](error-message|format-size|notify)|theme|app[\\/](app|router|paths|lazy-page|lazy-toasts|error-screen)\.tsx?|pages[\\/]guards\.tsx|app[\\/]layouts[\\/](account-layout|brand)\.tsx)`,
    String.raw`web[\\/]src[\\/]components[\\/](confirm|page-loader|color-scheme-toggle|language[\\/](language-select|use-language-choice))\.tsx`,
    String.raw`web[\\/]src[\\/]features[\\/](info[\\/](api|use-page-title)|account[\\/]api)\.ts`,
  ].join('|'),
)

export const isCoreModule = (id: string) => CORE.test(id) && !id.endsWith('.css')

/**
 * The libraries whose index re-exports everything (every Mantine component, hook, every icon). An
 * import of one name from them counts as an import of the file that defines that name;
 * otherwise every page would seem to need every icon (and every account screen every hook).
 */
const BARRELS: [RegExp, string][] = [
  [/[\\/]@mantine[\\/]core[\\/]esm[\\/]index\.mjs$/, '@mantine/core'],
  [/[\\/]@mantine[\\/]hooks[\\/]esm[\\/]index\.mjs$/, '@mantine/hooks'],
  [/[\\/]@tabler[\\/]icons-react[\\/]dist[\\/]esm[\\/]tabler-icons-react\.mjs$/, '@tabler/icons-react'],
]
const barrelOf = (id: string) => BARRELS.find(([file]) => file.test(id))?.[1]
const BARREL_PACKAGES = new Set(BARRELS.map(([, name]) => name))

/** name → defining file, from a barrel's `import { a as b } from` / `export { default as a } from` lines. */
function barrelExports(file: string): Map<string, string> {
  const names = new Map<string, string>()
  const source = readFileSync(file, 'utf8')
  for (const [, list, from] of source.matchAll(/(?:import|export)\s*\{([^}]*)\}\s*from\s*["']([^"']+)["']/g))
    for (const item of list!.split(',')) {
      const name = item
        .trim()
        .split(/\s+as\s+/)
        .pop()
      if (name) names.set(name, path.resolve(path.dirname(file), from!))
    }
  return names
}

/** The names a source file imports from each barrel package (read from its code). */
export function barrelImports(code: string): Map<string, string[]> {
  const found = new Map<string, string[]>()
  for (const [, list, from] of code.matchAll(/import\s*\{([^}]*)\}\s*from\s*["']([^"']+)["']/g))
    if (BARREL_PACKAGES.has(from!))
      found.set(from!, [
        ...(found.get(from!) ?? []),
        ...list!
          .split(',')
          .map((item) => item.trim().split(/\s+as\s+/)[0]!)
          .filter(Boolean),
      ])
  return found
}

/**
 * The part of the app a lazily loaded page or layout belongs to; undefined for other lazy
 * modules (dialogs, Markdown, the score chart), which load after the page has shown.
 */
function areaOf(root: string): string | undefined {
  if (/[\\/]src[\\/]pages[\\/]account[\\/]/.test(root)) return 'account'
  if (/[\\/]src[\\/]app[\\/]layouts[\\/]main-layout\.tsx$/.test(root)) return 'frame'
  if (/[\\/]src[\\/](pages[\\/]games[\\/]|app[\\/]layouts[\\/]game-layout)/.test(root)) return 'game'
  // The post editor is an admin's page too.
  if (
    /[\\/]src[\\/](pages[\\/]admin[\\/]|pages[\\/]posts[\\/]post-edit|app[\\/]layouts[\\/]admin)/.test(root)
  )
    return 'admin'
  if (/[\\/]src[\\/]pages[\\/](home|posts[\\/])/.test(root)) return 'posts'
  if (/[\\/]src[\\/](pages|app[\\/]layouts)[\\/]/.test(root)) return 'pages'
  return undefined
}

/** The dropdown-placement library (see `needsPlacement`). */
const PLACEMENT = /[\\/]node_modules[\\/]@floating-ui[\\/]/

interface ModuleGraph {
  getModuleIds(): IterableIterator<string>
  getModuleInfo(
    id: string,
  ): { importedIds: readonly string[]; dynamicallyImportedIds: readonly string[] } | null
}

/**
 * Fewer, larger chunks for the pages behind the main frame. Left alone, the bundler gives every
 * set of pages that share a module its own file, so the home page came in ~50 files; on a phone
 * over HTTP/1.1 (6 connections) that is ~8 round trips in a row. Here, a module that the frame
 * needs, or that pages of different areas share, joins the frame's chunk (every page but the
 * account screens loads the frame anyway); one that only pages of one area share goes to that
 * area's shared chunk; what a page shares with its dialogs counts as the page's. Modules an
 * account screen (or a part it loads later) needs keep the default split, so those screens load
 * nothing of the frame; so do modules only dialogs or other late-loaded parts share.
 * `named` holds each source file's imports from the barrels (see `barrelImports`).
 */
export function chunkOwners(
  graph: ModuleGraph,
  named: Map<string, Map<string, string[]>>,
): Map<string, string> {
  const ids = [...graph.getModuleIds()]
  const exported = new Map<string, Map<string, string>>()
  for (const id of ids) {
    const barrel = barrelOf(id)
    if (barrel) exported.set(barrel, barrelExports(id))
  }
  const importsOf = (id: string): string[] => {
    const direct = (graph.getModuleInfo(id)?.importedIds ?? []).filter((next) => !barrelOf(next))
    for (const [pkg, names] of named.get(id) ?? [])
      for (const name of names) {
        const file = exported.get(pkg)?.get(name)
        if (file) direct.push(file)
      }
    return direct
  }
  const roots = new Set<string>()
  for (const id of ids)
    for (const target of graph.getModuleInfo(id)?.dynamicallyImportedIds ?? []) roots.add(target)
  /** module → the lazily loaded modules that reach it through static imports */
  const reachedBy = new Map<string, Set<string>>()
  for (const root of roots) {
    const stack = [root]
    const seen = new Set<string>()
    while (stack.length) {
      const id = stack.pop()!
      if (seen.has(id)) continue
      seen.add(id)
      if (id !== root) {
        const set = reachedBy.get(id) ?? new Set<string>()
        set.add(root)
        reachedBy.set(id, set)
      }
      for (const next of importsOf(id)) if (!roots.has(next)) stack.push(next)
    }
  }
  /**
   * Late-loaded parts (dialogs, the sign-in providers, toasts) that an account screen or the
   * start-up code every screen runs may load: what they share with the frame's pages must stay
   * out of the frame's chunk, or an account screen would load the frame with them.
   */
  const importers = new Map<string, string[]>()
  for (const id of ids)
    for (const target of graph.getModuleInfo(id)?.dynamicallyImportedIds ?? [])
      importers.set(target, [...(importers.get(target) ?? []), id])
  const accountLate = new Set<string>()
  const isAccountLate = (root: string, seen = new Set<string>()): boolean => {
    if (accountLate.has(root)) return true
    if (seen.has(root)) return false
    seen.add(root)
    const late = (importers.get(root) ?? []).some((importer) => {
      const from = roots.has(importer) ? [importer] : [...(reachedBy.get(importer) ?? [])]
      return (
        !from.length || from.some((r) => areaOf(r) === 'account' || (!areaOf(r) && isAccountLate(r, seen)))
      )
    })
    if (late) accountLate.add(root)
    return late
  }
  /**
   * Whether a module needs the dropdown-placement library (~25 KiB: Menu, Popover, Tooltip,
   * ScrollArea). What the frame's chunk holds, every page behind the frame loads before its
   * first render, and the frame itself (AppShell) needs only the small part of the dialogs' code
   * (scroll locking): the modules that need the library get chunks of their own, which only the
   * pages and lazily loaded menus that show a dropdown, tooltip or table load.
   */
  const placement = new Map<string, boolean>()
  const needsPlacement = (id: string): boolean => {
    const known = placement.get(id)
    if (known !== undefined) return known
    placement.set(id, false) // an import cycle adds nothing
    const found = PLACEMENT.test(id) || importsOf(id).some(needsPlacement)
    placement.set(id, found)
    return found
  }
  const owners = new Map<string, string>()
  for (const [id, reachers] of reachedBy) {
    if (isCoreModule(id)) continue
    const areas = new Set([...reachers].map(areaOf))
    if (areas.has('account')) continue
    // A frame page's dialogs load after the page, whose chunks already hold what they share.
    areas.delete(undefined)
    if (!areas.size) continue
    // Shared with what an account screen loads late (dialogs, sign-in providers): a chunk per
    // set of those parts, which they load whole, instead of a small file per module for every
    // page of the frame.
    const late = [...reachers].filter((r) => !areaOf(r) && isAccountLate(r))
    if (late.length)
      owners.set(
        id,
        `late-${late
          .map((r) => path.basename(r).replace(/\..*/, ''))
          .sort()
          .join('-')}${needsPlacement(id) ? '-popups' : ''}`,
      )
    else if (areas.has('frame') || areas.size > 1) owners.set(id, 'frame')
    else if (reachers.size > 1) owners.set(id, `${[...areas][0]}-shared`)
  }
  for (const [id, owner] of owners)
    if (owner === 'frame' && needsPlacement(id)) owners.set(id, 'frame-popups')
  return owners
}
