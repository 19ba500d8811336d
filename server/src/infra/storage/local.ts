import { createHash, randomUUID } from 'node:crypto'
import { createReadStream, createWriteStream } from 'node:fs'
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type { BlobStorage } from './index.ts'

const HASH = /^[0-9a-f]{64}$/

/** Blobs under `root/uploads/ab/cd/<hash>`. Only validated hashes ever become paths. */
export function createLocalStorage(root: string): BlobStorage {
  const pathOf = (hash: string) => {
    if (!HASH.test(hash)) throw new Error(`not a blob hash: ${hash}`)
    return path.join(root, 'uploads', hash.slice(0, 2), hash.slice(2, 4), hash)
  }
  // Staged files live beside the blobs, on the same file system, so a commit is a rename.
  const stagingDir = path.join(root, 'uploads', 'staging')
  return {
    async put(hash, bytes) {
      const target = pathOf(hash)
      await mkdir(path.dirname(target), { recursive: true })
      // Write then rename, so a reader never sees half a file; a name of its own, so two writers
      // of the same bytes at the same moment do not take each other's file away.
      const tmp = `${target}.${process.pid}.${randomUUID()}.tmp`
      await writeFile(tmp, bytes)
      await rename(tmp, target)
    },
    async stage(source) {
      await mkdir(stagingDir, { recursive: true })
      const tmp = path.join(stagingDir, `${process.pid}.${randomUUID()}.tmp`)
      const digest = createHash('sha256')
      let size = 0
      const hashing = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          digest.update(chunk)
          size += chunk.length
          done(null, chunk)
        },
      })
      try {
        await pipeline(source, hashing, createWriteStream(tmp, { flags: 'wx' }))
      } catch (err) {
        await rm(tmp, { force: true })
        throw err
      }
      const hash = digest.digest('hex')
      return {
        hash,
        size,
        async commit() {
          const target = pathOf(hash)
          await mkdir(path.dirname(target), { recursive: true })
          await rename(tmp, target)
        },
        discard: () => rm(tmp, { force: true }),
      }
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
