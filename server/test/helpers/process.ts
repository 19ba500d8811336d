import type { ChildProcess } from 'node:child_process'

/**
 * Resolves with the port once a server process logs that it listens (JSON or pretty lines);
 * rejects if it exits first. What it printed collects in `output.text`.
 */
export function listeningPort(child: ChildProcess, output = { text: '' }): Promise<number> {
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output.text += chunk.toString()
      const port = output.text.match(/Server listening at http:\/\/127\.0\.0\.1:(\d+)/)?.[1]
      if (port) resolve(Number(port))
    })
    child.stderr?.on('data', (chunk: Buffer) => {
      output.text += chunk.toString()
    })
    child.once('exit', (code) =>
      reject(new Error(`server exited (${code}) before listening: ${output.text}`)),
    )
  })
}

/** Resolves once what a process printed (collected by {@link listeningPort}) matches `pattern`. */
export function printed(child: ChildProcess, output: { text: string }, pattern: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const found = output.text.match(pattern)
      if (!found) return false
      child.stdout!.off('data', onData)
      resolve(found[0])
      return true
    }
    // After listeningPort's own listener, so output.text already holds this chunk.
    const onData = () => setImmediate(check)
    if (check()) return
    child.stdout!.on('data', onData)
    child.once('exit', (code) =>
      reject(new Error(`exited (${code}) before printing ${pattern}: ${output.text}`)),
    )
  })
}

/** Resolves with the exit code once the process ended. */
export function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode)
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)))
}
