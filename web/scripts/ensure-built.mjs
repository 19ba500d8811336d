// Builds the web client when web/dist is missing or older than its sources, so `npm start`
// on a fresh clone serves the client without a separate build step.
import { spawn } from 'node:child_process'
import { existsSync, statSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { newest } from '../../scripts/newest.mjs'

const web = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const built = path.join(web, 'dist/index.html')

const sources = Math.max(newest(path.join(web, 'src')), statSync(path.join(web, 'index.html')).mtimeMs)
if (!existsSync(built) || statSync(built).mtimeMs < sources) {
  // The build is quiet for a minute or so on a small machine: say so, and show that it moves.
  console.log('Building the web client (first start, or its sources changed; about a minute)…')
  const started = Date.now()
  const ticker = setInterval(() => {
    console.log(`  …still building (${Math.round((Date.now() - started) / 1000)} s)`)
  }, 15_000)
  const code = await new Promise((resolve) => {
    spawn('npm', ['run', '-s', 'build', '--', '--logLevel', 'warn'], { cwd: web, stdio: 'inherit' }).on(
      'close',
      resolve,
    )
  })
  clearInterval(ticker)
  if (code !== 0) process.exit(code ?? 1)
  console.log(`Web client built in ${Math.round((Date.now() - started) / 1000)} s.`)
}
