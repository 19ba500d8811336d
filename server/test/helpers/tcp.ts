import { createConnection } from 'node:net'

// No dependencies: the e2e suite and the bench use these too.

/** What the service in the container says to a new TCP connection. */
export function readEntry(entry: string, timeoutMs = 5000): Promise<string> {
  const [host, port] = [
    entry.slice(0, entry.lastIndexOf(':')),
    Number(entry.slice(entry.lastIndexOf(':') + 1)),
  ]
  return new Promise((resolve, reject) => {
    const socket = createConnection({ host, port })
    let text = ''
    socket.setTimeout(timeoutMs, () => socket.destroy(new Error(`no answer from ${entry}`)))
    socket.on('data', (d) => {
      text += d.toString()
    })
    socket.on('end', () => resolve(text.trim()))
    socket.on('error', reject)
  })
}

/** Like {@link readEntry}, retried while the service inside is still coming up. */
export async function readEntryEventually(entry: string, timeoutMs = 10_000): Promise<string> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    try {
      const text = await readEntry(entry)
      if (text) return text
    } catch (err) {
      if (Date.now() > deadline) throw err
    }
    if (Date.now() > deadline) throw new Error(`empty answer from ${entry}`)
    // real wait: polling a real container's entry
    await new Promise((r) => setTimeout(r, 200))
  }
}
