import { existsSync, statSync } from 'node:fs'
import { resolve } from 'node:path'
import { ApiError, createApi } from './api.ts'
import { formatDiagnostic } from './challenge-yml/spec.ts'
import { formatPlan } from './format.ts'
import { runFolder } from './run.ts'

/** Exit codes: 0 nothing (left) to do, 1 failure (bad files, bad usage, server error), 2 plan: something to do. */
export const EXIT = { ok: 0, failed: 1, work: 2 } as const

const USAGE = `usage: pennant challenges plan <folder> --game <id> [--prune]
       pennant challenges sync <folder> --game <id> [--prune] [--build]

  Reads every challenge.yml (ctfcli or gzcli dialect) under <folder>. plan prints what a sync
  would create or change in game <id>; sync does it, one challenge at a time.
  --prune  also remove the game's challenges tied to a folder that is gone (challenges made
           by hand are never removed).
  --build  (sync) first build each container challenge's image (its container image name) from
           the Dockerfile in its folder, on the container engine the server uses.
  Environment: PENNANT_URL (server address), PENNANT_TOKEN (an admin API token).
  Exit status of plan: 0 nothing to do, 2 something to do, 1 an error.
  Exit status of sync: 0 all applied (or nothing to do), 1 an error.`

export interface Io {
  out: (line: string) => void
  err: (line: string) => void
  fetch?: typeof fetch
}

const stdio: Io = { out: (l) => console.log(l), err: (l) => console.error(l) }

interface PlanArgs {
  command: 'plan' | 'sync'
  folder: string
  game: number
  prune: boolean
  build: boolean
}

function parseArgs(argv: string[]): PlanArgs | string {
  const [group, command, ...rest] = argv
  if (group !== 'challenges' || (command !== 'plan' && command !== 'sync')) return 'unknown command'
  let folder: string | undefined
  let game: string | undefined
  let prune = false
  let build = false
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i]!
    if (a === '--prune') prune = true
    else if (a === '--build') build = true
    else if (a === '--game') game = rest[++i]
    else if (a.startsWith('--game=')) game = a.slice(7)
    else if (a.startsWith('-')) return `unknown option ${a}`
    else if (folder === undefined) folder = a
    else return `unexpected argument ${a}`
  }
  if (!folder) return 'the challenge folder is missing'
  if (!game || !/^\d+$/.test(game) || Number(game) < 1)
    return '--game needs a game id (a positive whole number)'
  if (build && command !== 'sync') return '--build goes with sync'
  return { command, folder, game: Number(game), prune, build }
}

/** Runs the command line; returns the exit status. */
export async function main(
  argv: string[],
  env: Record<string, string | undefined>,
  io: Io = stdio,
): Promise<number> {
  if (argv.length === 0 || argv.includes('--help') || argv.includes('-h')) {
    io.out(USAGE)
    return argv.length === 0 ? EXIT.failed : EXIT.ok
  }
  const args = parseArgs(argv)
  if (typeof args === 'string') {
    io.err(`pennant: ${args}\n\n${USAGE}`)
    return EXIT.failed
  }
  const root = resolve(args.folder)
  if (!existsSync(root) || !statSync(root).isDirectory()) {
    io.err(`pennant: ${args.folder} is not a folder`)
    return EXIT.failed
  }
  const url = env.PENNANT_URL
  const token = env.PENNANT_TOKEN
  if (!url || !/^https?:\/\/\S+$/.test(url)) {
    io.err('pennant: set PENNANT_URL to the server address (http:// or https://)')
    return EXIT.failed
  }
  if (!token) {
    io.err('pennant: set PENNANT_TOKEN to an API token (Admin > API tokens)')
    return EXIT.failed
  }

  try {
    const run = await runFolder(root, {
      api: createApi({ url, token, fetch: io.fetch }),
      game: args.game,
      prune: args.prune,
      build: args.build,
      apply: args.command === 'sync',
      log: io.out,
      onRead: (diagnostics) => {
        for (const d of diagnostics) io.err(formatDiagnostic(d))
      },
      onPlan: (p) => io.out(formatPlan(p)),
    })
    if (!run.plan) {
      io.err(
        run.read === 0
          ? `pennant: no challenge.yml under ${args.folder}`
          : `pennant: fix the errors above (${run.read} challenge(s) read cleanly)`,
      )
      return EXIT.failed
    }
    if (args.command === 'plan') return run.plan.hasWork ? EXIT.work : EXIT.ok
    if (!run.result) return EXIT.ok
    io.out(`${run.result.applied} applied, ${run.result.failed} failed`)
    return run.result.failed ? EXIT.failed : EXIT.ok
  } catch (err) {
    if (!(err instanceof ApiError)) throw err
    const hint =
      err.status === 401 || err.status === 403
        ? ' (is PENNANT_TOKEN an admin token this server accepts?)'
        : ''
    io.err(`pennant: ${err.message}${hint}`)
    return EXIT.failed
  }
}
