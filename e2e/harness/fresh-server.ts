import { readFileSync } from 'node:fs'
import path from 'node:path'
import { createTestDatabase } from './database.ts'
import { ENV } from './env.ts'
import { ARTIFACTS_DIR } from './paths.ts'
import { startServer } from './server.ts'

export interface FreshServer {
  url: string
  /** The first admin's password, as the server printed it at its first start. */
  adminPassword: string
  stop(): Promise<void>
}

/**
 * A server of its own on an empty database, started as a new install is: no admin password
 * given, so it creates `Admin` with a random password, prints it once and asks for a new one at
 * sign-in. Serves the run's web build; no mail, no containers. For tests about a first visit,
 * which the run's shared server (full of other tests' games) cannot show.
 */
export async function startFreshServer(name: string): Promise<FreshServer> {
  const webDir = process.env[ENV.webDir]
  if (!webDir) throw new Error(`${ENV.webDir} is not set: run the tests through playwright.config.ts`)
  const database = await createTestDatabase()
  const logFile = path.join(ARTIFACTS_DIR, `server-${name}.log`)
  try {
    const server = await startServer({
      logFile,
      env: { ...database.env, WEB_DIR: webDir, CONTAINER_BACKEND: 'none' },
    })
    const printed = /password: +(\S+)/.exec(readFileSync(logFile, 'utf8'))?.[1]
    if (!printed) {
      await server.stop()
      throw new Error(`the fresh server printed no admin password (see ${logFile})`)
    }
    return {
      url: server.url,
      adminPassword: printed,
      async stop() {
        await server.stop()
        await database.drop()
      },
    }
  } catch (err) {
    await database.drop()
    throw err
  }
}
