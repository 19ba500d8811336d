import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'
import { barrelImports, chunkOwners, isCoreModule } from './scripts/core-chunk.ts'

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
        if (/[\\/]web[\\/]src[\\/].*\.tsx?$/.test(id)) named.set(id, barrelImports(code))
      },
      buildEnd() {
        owners = chunkOwners(this, named)
      },
    },
    {
      // The page starts fetching, while the core chunk still downloads, what start-up would
      // otherwise only ask for once that chunk has run: the English common strings (always
      // loaded, as the fallback language) and, outside the account screens, the main frame.
      name: 'pennant-early-chunks',
      apply: 'build',
      transformIndexHtml: {
        order: 'post',
        handler(_html, { bundle }) {
          const chunks = Object.values(bundle ?? {}).filter((c) => c.type === 'chunk')
          const chunk = (source: string) => chunks.find((c) => c.facadeModuleId?.endsWith(source))
          const common = chunk('/src/i18n/locales/en-US/common.json')
          const frame = chunk('/src/app/layouts/main-layout.tsx')
          if (!common || !frame) throw new Error('early chunks: common strings or main frame not found')
          const loaded = new Set(chunks.filter((c) => c.isEntry).flatMap((c) => [c.fileName, ...c.imports]))
          const frameFiles = [frame.fileName, ...frame.imports].filter((f) => !loaded.has(f))
          const frameCss = chunks
            .filter((c) => frameFiles.includes(c.fileName))
            .flatMap((c) => [...(c.viteMetadata?.importedCss ?? [])])
          // Stylesheets as plain preloads: they apply when the frame's code adds them, as now.
          // Same CORS mode as the links the bundler's loader adds, so the preloads are used.
          const links = JSON.stringify([
            ...frameFiles.map((f) => ['modulepreload', `/${f}`]),
            ...frameCss.map((f) => ['preload', `/${f}`]),
          ])
          return [
            {
              tag: 'link',
              attrs: { rel: 'modulepreload', crossorigin: true, href: `/${common.fileName}` },
              injectTo: 'head',
            },
            {
              tag: 'script',
              children: `if(!/^\\/account(\\/|$)/i.test(location.pathname))for(const[r,h]of ${links}){const l=document.createElement('link');l.rel=r;l.href=h;l.crossOrigin='';if(r==='preload')l.as='style';document.head.append(l)}`,
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
