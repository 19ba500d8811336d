import { chmod, lstat, mkdir, readdir } from 'node:fs/promises'
import path from 'node:path'

/** Bits that let anyone but the owner read, write or enter. */
const OTHERS = 0o077

/**
 * Makes `DATA_DIR` the server user's alone (issue 26, finding 8): from now on every file and
 * folder this process creates, the embedded database's included, is made without group or
 * other permissions (umask 077), and what an earlier run left readable or writable by others is
 * narrowed to the owner. Symbolic links are not followed. Returns the number of entries fixed.
 */
export async function secureDataDir(dataDir: string, warn: (msg: string) => void): Promise<number> {
  process.umask(OTHERS)
  await mkdir(dataDir, { recursive: true, mode: 0o700 })
  let fixed = 0
  const queue = [dataDir]
  while (queue.length) {
    const dir = queue.pop()!
    const entries = [dir, ...(await readdir(dir).catch(() => [])).map((name) => path.join(dir, name))]
    for (const [i, entry] of entries.entries()) {
      const info = await lstat(entry).catch(() => null)
      if (!info || info.isSymbolicLink()) continue
      if (i > 0 && info.isDirectory()) {
        queue.push(entry)
        continue
      }
      if ((info.mode & OTHERS) === 0) continue
      try {
        await chmod(entry, info.mode & 0o7777 & ~OTHERS)
        fixed++
      } catch (err) {
        warn(`could not narrow the permissions of ${entry}: ${(err as Error).message}`)
      }
    }
  }
  return fixed
}
