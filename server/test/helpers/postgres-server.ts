import { execFile, execFileSync } from 'node:child_process'
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { freePort } from '../scaleout/cluster.ts'

/** Debian's PostgreSQL binaries (`/usr/lib/postgresql/<major>/bin`), or undefined. */
function binDir(): string | undefined {
  const root = '/usr/lib/postgresql'
  if (!existsSync(root)) return undefined
  const major = readdirSync(root).sort((a, b) => Number(b) - Number(a))[0]
  return major ? path.join(root, major, 'bin') : undefined
}

/** Whether this machine can run a PostgreSQL of a test's own (binaries and the postgres user). */
export function canRunPostgres(): boolean {
  if (!binDir() || process.getuid?.() !== 0) return false
  try {
    execFileSync('id', ['postgres'], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

export interface PostgresServer {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` (trust authentication). */
  url: string
  port: number
  /** Its temporary folder (data directory in `data/`, log in `log`). */
  dir: string
  /** `pg_ctl restart -m fast`: every connection is cut, the server is back when this resolves. */
  restart(): Promise<void>
  stop(): Promise<void>
  start(): Promise<void>
  close(): Promise<void>
}

/**
 * A PostgreSQL server of the test's own, in a temporary folder on a free port, so it can be
 * restarted or stopped (the shared one on 5432 must stay up). It runs as the postgres user
 * (PostgreSQL refuses root), with trust authentication on loopback and no fsync.
 */
export async function startPostgres(): Promise<PostgresServer> {
  const bin = binDir()
  if (!bin) throw new Error('PostgreSQL binaries not found')
  const dir = mkdtempSync(path.join(tmpdir(), 'pennant-pg-'))
  chmodSync(dir, 0o700)
  const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim())
  const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim())
  chownSync(dir, uid, gid)
  const data = path.join(dir, 'data')
  // Not execFileSync: the test's own server must keep answering while PostgreSQL restarts.
  const asPostgres = (cmd: string, args: string[]) =>
    new Promise<void>((resolve, reject) =>
      execFile('runuser', ['-u', 'postgres', '--', path.join(bin, cmd), ...args], (err, _out, stderr) =>
        err ? reject(new Error(`${cmd} failed: ${stderr || err.message}`)) : resolve(),
      ),
    )
  await asPostgres('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--no-sync'])
  const port = await freePort()
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`
  const ctl = (...args: string[]) =>
    asPostgres('pg_ctl', ['-D', data, '-l', path.join(dir, 'log'), '-o', options, '-w', '-t', '30', ...args])
  await ctl('start')
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    dir,
    restart: () => ctl('restart', '-m', 'fast'),
    stop: () => ctl('stop', '-m', 'fast'),
    start: () => ctl('start'),
    async close() {
      await ctl('stop', '-m', 'immediate').catch(() => {})
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
