import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'
import { isCoreModule } from './scripts/core-chunk.ts'

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

export default defineConfig({
  plugins: [react()],
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
        codeSplitting: { groups: [{ name: 'core', test: isCoreModule, priority: 10 }] },
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
