import path from 'node:path'
import { fileURLToPath } from 'node:url'

const file = fileURLToPath(import.meta.url)
/** True when this runs from the sources (tsx: tests, `npm run dev`), false in the esbuild bundle. */
export const FROM_SOURCES = file.endsWith('.ts')

/**
 * The build's output folder (`server/dist`, or the folder `build.mjs --outdir` wrote): this code
 * sits in its `main.js`, in its `proxy-child.js`, or in a shared chunk under `chunks/`.
 */
const buildDir = FROM_SOURCES
  ? null
  : path.basename(path.dirname(file)) === 'chunks'
    ? path.dirname(path.dirname(file))
    : path.dirname(file)

/**
 * The server workspace's folder (`server/`): this file's parent when the sources run
 * (`src/paths.ts`), the output folder's parent when the build runs (`dist/main.js`).
 */
export const serverDir = FROM_SOURCES ? path.resolve(path.dirname(file), '..') : path.dirname(buildDir!)

/**
 * Every file the server reads at run time besides its code and its dependencies. From the
 * sources they are where they are kept; the build (`scripts/build.mjs`) copies each one into its
 * output folder, so `dist/` is all a start needs. `runtime-files.ts` checks them at start.
 */
export const RUNTIME = buildDir
  ? {
      locales: path.join(buildDir, 'locales'),
      migrations: path.join(buildDir, 'migrations'),
      pgliteWorker: path.join(buildDir, 'pglite-worker.js'),
      assets: path.join(buildDir, 'assets'),
      proxyChild: path.join(buildDir, 'proxy-child.js'),
    }
  : {
      locales: path.join(serverDir, 'src/http/locales'),
      migrations: path.join(serverDir, 'src/db/migrations'),
      pgliteWorker: path.join(serverDir, 'src/db/pglite-worker.js'),
      assets: path.join(serverDir, 'assets'),
      proxyChild: path.join(serverDir, 'src/modules/proxy/proxy-child.ts'),
    }
