import { execFile } from 'node:child_process'
import { existsSync, readdirSync, renameSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'
import { serverDir } from '../../src/paths.ts'

const run = promisify(execFile)
const web = path.resolve(serverDir, '../web')
const builds = path.join(web, '.builds')

/** Runs web/scripts/build.mjs as `npm start` does (`--if-stale --quiet`), into `out`. */
function build(out: string, env: NodeJS.ProcessEnv = {}) {
  return run(
    process.execPath,
    [path.join(web, 'scripts/build.mjs'), '--if-stale', '--quiet', '--outdir', out],
    {
      cwd: web,
      // As a terminal's `npm start` would: not the test runner's NODE_ENV and markers.
      env: {
        ...Object.fromEntries(
          Object.entries(process.env).filter(([k]) => k !== 'NODE_ENV' && !k.startsWith('VITEST')),
        ),
        ...env,
      },
      maxBuffer: 16 << 20,
    },
  )
}

const leftovers = (out: string) =>
  readdirSync(path.dirname(out)).filter((n) => n.startsWith(`${path.basename(out)}.`))

// Issue 27: a first start interrupted after Vite wrote the client but before the compression
// left a build every later start took as done, serving the core script uncompressed for good.
describe('the web client build', () => {
  const out = path.join(builds, `test-${process.pid}`)
  afterAll(async () => {
    for (const name of existsSync(builds) ? readdirSync(builds) : [])
      if (name.startsWith(path.basename(out)))
        await rm(path.join(builds, name), { recursive: true, force: true })
  })

  it('is whole or absent: an interrupted build leaves nothing in place, and the next start builds it all', {
    // Two real builds; minutes on a busy 2-core machine.
    timeout: 900_000,
  }, async () => {
    // Killed between the bundle and the compression, as a Ctrl-C or a killed start would be.
    const interrupted = await build(out, { PENNANT_WEB_BUILD_INTERRUPT: 'after-vite' }).catch((err) => err)
    expect(interrupted.signal, `${interrupted.stdout ?? ''}${interrupted.stderr ?? interrupted}`).toBe(
      'SIGKILL',
    )
    expect(existsSync(out)).toBe(false)
    const [half] = leftovers(out)
    expect(half).toMatch(/\.building-\d+$/)
    const halfDir = path.join(builds, half!)
    expect(existsSync(path.join(halfDir, 'index.html'))).toBe(true)
    expect(readdirSync(path.join(halfDir, 'static')).some((f) => f.endsWith('.br'))).toBe(false)

    // Even put in place (as an earlier version of the build left it: bundle, no compression),
    // a build without the marker written last counts as not built.
    renameSync(halfDir, out)
    const { stdout } = await build(out)
    expect(stdout).toMatch(/^Building the web client .*\nWeb client built in \d+ s\.\n$/)
    expect(existsSync(path.join(out, '.build-complete'))).toBe(true)
    const statics = readdirSync(path.join(out, 'static'))
    const core = statics.find((f) => /^core\..*\.js$/.test(f))
    expect(core).toBeTruthy()
    expect(statics).toContain(`${core}.br`)
    expect(statics).toContain(`${core}.gz`)
    expect(leftovers(out)).toEqual([])

    // Complete and newer than the sources: the next start does nothing and says nothing.
    expect((await build(out)).stdout).toBe('')
  })
})
