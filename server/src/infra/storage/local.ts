import { createReadStream } from 'node:fs'
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises'
import path from 'node:path'
import type { BlobStorage } from './index.ts'

const HASH = /^[0-9a-f]{64}$/

/** Blobs under `root/uploads/ab/cd/<hash>`. Only validated hashes ever become paths. */
export function createLocalStorage(root: string): BlobStorage {
  const pathOf = (hash: string) => {
    if (!HASH.test(hash)) throw new Error(`not a blob hash: ${hash}`)
    return path.join(root, 'uploads', hash.slice(0, 2), hash.slice(2, 4), hash)
  }
  return {
    async put(hash, bytes) {
      const target = pathOf(hash)
      await mkdir(path.dirname(target), { recursive: true })
      // Write then rename, so a reader never sees half a file.
      const tmp = `${target}.${process.pid}.${Date.now()}.tmp`
      await writeFile(tmp, bytes)
      await rename(tmp, target)
    },
    async open(hash) {
      const file = pathOf(hash)
      try {
        await stat(file)
      } catch {
        return null
      }
      return createReadStream(file)
    },
    async remove(hash) {
      await rm(pathOf(hash), { force: true })
    },
  }
}
