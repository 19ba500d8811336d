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
