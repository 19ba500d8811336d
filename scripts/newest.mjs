// When a build's sources last changed: the newest modification time below a folder. The server's
// and the web client's "build only when stale" checks both use it.
import { readdirSync, statSync } from 'node:fs'
import path from 'node:path'

export function newest(dir) {
  let latest = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name)
    latest = Math.max(latest, entry.isDirectory() ? newest(full) : statSync(full).mtimeMs)
  }
  return latest
}
