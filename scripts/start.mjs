#!/usr/bin/env node
// `npm start`: builds the web client and the server when their sources are newer than their
// builds, then runs the built server (server/dist/main.js) in this same process. One process
// instead of a second `npm run` and a second Node.js start saves most of a second on every
// restart; the builds themselves still run as their own processes, only when stale.
import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

for (const [script, ...args] of [
  ['web/scripts/build.mjs', '--if-stale', '--quiet'],
  ['server/scripts/build.mjs', '--if-stale'],
]) {
  const built = spawnSync(process.execPath, [path.join(root, script), ...args], { stdio: 'inherit' })
  if (built.status !== 0) process.exit(built.status ?? 1)
}
// Relative paths (DATA_DIR…) stay relative to where `npm start` was run: npm passes that as INIT_CWD.
process.env.INIT_CWD ??= process.cwd()
await import(pathToFileURL(path.join(root, 'server/dist/main.js')).href)
