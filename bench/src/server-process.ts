import type { ChildProcess } from 'node:child_process'

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** Waits until `url` answers 2xx from the server `child` started (up to `seconds`). */
export async function waitFor(url: string, child: ChildProcess, seconds = 30) {
  for (let i = 0; i < seconds * 10; i++) {
    if (child.exitCode !== null) throw new Error('server exited during start-up')
    try {
      if ((await fetch(url)).ok) return
    } catch {}
    await sleep(100)
  }
  throw new Error(`${url} did not come up`)
}

/**
 * The environment a bench starts its server with: this machine's environment, the port on
 * loopback only, warnings only, the admin's password known; `extra` adds or overrides.
 */
export function serverEnv(port: number, adminPassword: string, extra: Record<string, string>) {
  return {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    PENNANT_ADMIN_PASSWORD: adminPassword,
    ...extra,
  }
}
