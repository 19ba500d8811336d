import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'
import { barrelImports, chunkOwners, isCoreModule } from './scripts/core-chunk.ts'
import { frameModules, routeModules, routes } from './scripts/first-loads.mjs'
import { EARLY_GLOBAL, SESSION_DATA, SIGNED_IN_COOKIE } from './src/api/early-global.ts'
import { PAGE_DATA, START_DATA } from './src/app/early-data.ts'

/** A git answer, or '' where git or the repository is not there (e.g. a source tarball). */
function git(...args: string[]): string {
  try {
    return execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()
  } catch {
    return ''
  }
}

/**
 * What the About page shows about this build (seed "Build info"). CI sets the PENNANT_GIT_*
 * variables; a local build asks git. `timestamp` is the build time as 20-character ISO.
 */
function buildInfo() {
  const built = new Date(process.env.PENNANT_BUILD_TIME || Date.now())
  const time = Number.isNaN(built.getTime()) ? new Date() : built
  const remote = process.env.PENNANT_GIT_REPO || git('remote', 'get-url', 'origin')
  return {
    sha: process.env.PENNANT_GIT_SHA || git('rev-parse', 'HEAD'),
    rawTag: process.env.PENNANT_GIT_TAG || git('describe', '--tags', '--always', '--dirty'),
    timestamp: time.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    buildTime: time.toISOString(),
    // An https address of the repository, for commit links (ssh remotes are rewritten).
    repo: remote.replace(/^git@([^:]+):/, 'https://$1/').replace(/\.git$/, ''),
  }
}

/** A route of first-loads.mjs (`/games/:id/challenges`) as a pattern for the page's path. */
const routePattern = (route: string) =>
  `^${route.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:(\w+)/g, '(?<$1>[^/]+)')}/?$`

/** Which shared chunk each module goes to, read from the module graph once it is complete. */
let owners = new Map<string, string>()
/** Each source file's imports from Mantine's and the icons' index modules. */
const named = new Map<string, Map<string, string[]>>()

export default defineConfig({
  plugins: [
    react(),
    {
      name: 'pennant-chunk-owners',
      transform(code, id) {
        // Ours, and Mantine's components (they take their hooks from the hooks' index).
        if (/[\\/](web[\\/]src[\\/].*\.tsx?|@mantine[\\/]core[\\/]esm[\\/].*\.mjs)$/.test(id))
          named.set(id, barrelImports(code))
      },
      buildEnd() {
        owners = chunkOwners(this, named)
      },
    },
    {
      // The page starts fetching, while the core chunk still downloads, everything start-up
      // would otherwise only ask for once that chunk has run: the code and styles of the route
      // being opened (scripts/first-loads.mjs; the main frame for other pages outside the
      // account screens).
      // One wave of requests from the HTML instead of a second one after the core chunk.
      name: 'pennant-early-chunks',
      apply: 'build',
      transformIndexHtml: {
        order: 'post',
        handler(_html, { bundle }) {
          const chunks = Object.values(bundle ?? {}).filter((c) => c.type === 'chunk')
          const byName = new Map(chunks.map((c) => [c.fileName, c]))
          const chunk = (source: string) => chunks.find((c) => c.facadeModuleId?.endsWith(`/${source}`))
          /** A chunk's file, its static imports' and their styles, once each. */
          const collect = (file: string, into: Set<string>) => {
            if (into.has(file)) return
            into.add(file)
            const c = byName.get(file)
            for (const css of c?.viteMetadata?.importedCss ?? []) into.add(css)
            for (const next of c?.imports ?? []) collect(next, into)
          }
          const loaded = new Set<string>()
          for (const c of chunks) if (c.isEntry) collect(c.fileName, loaded)
          const filesOf = (modules: string[]) => {
            const files = new Set<string>()
            for (const source of modules) {
              const c = chunk(source)
              if (!c) throw new Error(`early chunks: no chunk for ${source}`)
              collect(c.fileName, files)
            }
            return [...files].filter((f) => !loaded.has(f))
          }
          const dataOf = (modules: string[]) =>
            modules.flatMap((m) => (PAGE_DATA as Record<string, readonly string[]>)[m] ?? [])
          const table = [
            ...routes.map(([route, modules]) => [routePattern(route), routeModules(modules)] as const),
            ['^/(?!account(/|$))', frameModules] as const,
          ].map(([re, modules]) => [re, filesOf(modules), dataOf(modules)] as const)
          // Each file named once; the routes refer to them by position.
          const files = [...new Set(table.flatMap(([, list]) => list))]
          const routeTable = JSON.stringify(
            table.map(([re, list, data]) => [re, list.map((f) => files.indexOf(f)), data]),
          )
          const names = JSON.stringify(files.map((f) => f.replace(/^static\//, '')))
          // Stylesheets as plain preloads: they apply when the page's code adds them, as now.
          // Same CORS mode as the links the bundler's loader adds, so the preloads are used.
          return [
            {
              tag: 'script',
              // The answers go out with the stored language, as the app's own requests do; what
              // needs a session only when the server's hint cookie says there is one.
              children: `{const f=${names},x=${JSON.stringify(SESSION_DATA)},s=document.cookie.split('; ').some(c=>c.startsWith('${SIGNED_IN_COOKIE}=')),p=location.pathname,e=window.${EARLY_GLOBAL}={},a=(u)=>{let l;try{l=localStorage.getItem('language')}catch{}e[u]??=fetch(u,{credentials:'same-origin',headers:l?{'Accept-Language':l}:{}})};a('${START_DATA}');for(const[r,l,d]of ${routeTable}){const m=p.match(new RegExp(r,'i'));if(!m)continue;for(const i of l){const k=document.createElement('link'),h=f[i];k.rel=h.endsWith('.css')?'preload':'modulepreload';if(k.rel==='preload')k.as='style';k.href='/static/'+h;k.crossOrigin='';document.head.append(k)}for(const u of d)if(s||!x.includes(u))a(u.replace(/\\{(\\w+)\\}/g,(_,n)=>encodeURIComponent(m.groups[n])));break}}`,
              injectTo: 'head',
            },
          ]
        },
      },
    },
  ],
  define: { __BUILD_INFO__: JSON.stringify(buildInfo()) },
  resolve: {
    alias: {
      '@': fileURLToPath(new URL('./src', import.meta.url)),
      // The server's pure game rules (score curve, blood bonus, ...): one implementation for both.
      '@engine': fileURLToPath(new URL('../server/src/engine', import.meta.url)),
    },
  },
  build: {
    outDir: 'dist',
    assetsDir: 'static',
    // Browsers without modulepreload (Safari before 17) only miss the head start: the imports
    // still load everything. The polyfill would ship to every browser for them.
    modulePreload: { polyfill: false },
    // The report in scripts/bundle-size.mjs reads the manifest to add up each route's first load.
    manifest: true,
    chunkSizeWarningLimit: 600,
    rollupOptions: {
      output: {
        entryFileNames: 'static/[name].[hash].js',
        chunkFileNames: 'static/[name].[hash].js',
        assetFileNames: 'static/[name].[hash][extname]',
        // One chunk for what every first load needs (see scripts/core-chunk.ts for why).
        // Then the frame's and each area's shared chunk (see chunkOwners for why).
        codeSplitting: {
          groups: [
            { name: 'core', test: isCoreModule, priority: 10 },
            // Only the modules chosen: pulling in their imports too would move modules the
            // account screens share into the frame.
            {
              name: 'frame',
              test: (id) => owners.get(id) === 'frame',
              priority: 6,
              includeDependenciesRecursively: false,
            },
            {
              debugName: 'area-shared',
              name: (id) => owners.get(id) ?? null,
              priority: 5,
              includeDependenciesRecursively: false,
            },
          ],
        },
      },
    },
  },
  server: {
    port: 63000,
    proxy: Object.fromEntries(
      ['/api', '/assets', '/hub', '/openapi'].map((p) => [
        p,
        { target: process.env.VITE_BACKEND_URL ?? 'http://localhost:8080', ws: p === '/hub' },
      ]),
    ),
  },
})
