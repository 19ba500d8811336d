import { mkdtemp, readdir, rm, stat } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'

const PREFIX = 'pennant_e2e_'
/** Databases and data directories of runs that died without their teardown are removed once this old. */
const STALE_MS = 6 * 3600_000

export interface TestDatabase {
  /** Server environment selecting this database (`DATABASE_URL` or a fresh `DATA_DIR`). */
  env: Record<string, string>
  /** What to tell the user: a database name or a directory. */
  description: string
  drop(): Promise<void>
}

async function withClient<T>(url: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return await run(client)
  } finally {
    await client.end()
  }
}

/**
 * A fresh database for one run: a new database (`pennant_e2e_<time>_<random>`) on the PostgreSQL
 * server named by `TEST_DATABASE_URL`, or, when it is unset, a fresh temporary `DATA_DIR`, where the
 * server keeps its embedded PGlite database.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  await removeStaleDirs()
  const serverUrl = process.env.TEST_DATABASE_URL
  if (!serverUrl) {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'pennant-e2e-'))
    return {
      env: { DATA_DIR: dataDir },
      description: `PGlite in ${dataDir}`,
      drop: () => rm(dataDir, { recursive: true, force: true }),
    }
  }

  const name = `${PREFIX}${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`
  await withClient(serverUrl, async (client) => {
    await dropStale(client)
    await client.query(`CREATE DATABASE ${name}`)
  })
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'pennant-e2e-files-'))
  return {
    // Uploaded files still go under DATA_DIR.
    env: { DATABASE_URL: url.toString(), DATA_DIR: dataDir },
    description: `PostgreSQL database ${name}`,
    async drop() {
      await withClient(serverUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`))
      await rm(dataDir, { recursive: true, force: true })
    },
  }
}

/** Drops the databases that killed runs left behind (old, and with no one connected). */
async function dropStale(client: pg.Client) {
  const { rows } = await client.query<{ datname: string }>(
    'SELECT datname FROM pg_database WHERE datname LIKE $1',
    [`${PREFIX}%`],
  )
  for (const { datname } of rows) {
    const created = Number.parseInt(datname.slice(PREFIX.length).split('_')[0] ?? '', 36)
    if (!/^[a-z0-9_]+$/.test(datname) || !(Date.now() - created > STALE_MS)) continue
    // Without FORCE: a database someone is still using stays.
    await client.query(`DROP DATABASE IF EXISTS ${datname}`).catch(() => {})
  }
}

/** Removes the temporary data directories that killed runs left behind. */
async function removeStaleDirs() {
  const tmp = os.tmpdir()
  for (const name of await readdir(tmp)) {
    if (!name.startsWith('pennant-e2e-')) continue
    const dir = path.join(tmp, name)
    const info = await stat(dir).catch(() => null)
    if (info?.isDirectory() && Date.now() - info.mtimeMs > STALE_MS) {
      await rm(dir, { recursive: true, force: true }).catch(() => {})
    }
  }
}
