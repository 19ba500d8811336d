import { randomUUID } from 'node:crypto'
import { createWriteStream } from 'node:fs'
import { mkdir, rename, rm } from 'node:fs/promises'
import path from 'node:path'
import { createPcapConnection, fileHeader } from './pcap.ts'
import type { ConnectionRecorder, OpenRecorder } from './proxy.service.ts'

/**
 * Bytes of a capture waiting for the disk: beyond this the disk cannot keep up with the
 * connection, and capturing stops for it rather than slowing it down or growing memory.
 */
const MAX_PENDING = 16 * 1024 * 1024

/** Where captures are written until complete: a folder of the capture root. */
export const partialDir = (root: string) => path.join(root, '.partial')

/** The folder of one team's captures of one challenge. */
export const captureDir = (root: string, challengeId: number, partId: number) =>
  path.join(root, String(challengeId), String(partId))

/**
 * The proxy's recorder (game-engine §6.6): each connection becomes a pcap file, written under
 * {@link partialDir} and moved to `<challengeId>/<participationId>/<8 hex of container id>-<connection
 * id>.pcap` once complete. Needs no database, so the proxy's own process runs it.
 */
export function createRecorder(deps: {
  /** `DATA_DIR/files/capture`. */
  root: string
  log: { warn(obj: object, msg: string): void }
  /** Where a connection's file is written until it is complete (tests point it at /dev/full). */
  tempFile?: () => string
}): OpenRecorder {
  const { root, log } = deps
  const tempDir = partialDir(root)
  const tempFile = deps.tempFile ?? (() => path.join(tempDir, `${randomUUID()}.pcap`))
  const dirOf = (challengeId: number, partId: number) => captureDir(root, challengeId, partId)

  return (entry, connectionId, player, container) => {
    if (entry.challengeId === null || entry.participationId === null) return null
    const file = tempFile()
    // Only our own partial files are ever moved or removed (a test writes to /dev/full).
    const ours = file.startsWith(tempDir + path.sep)
    const discard = () => (ours ? rm(file, { force: true }) : undefined)
    const final = path.join(
      dirOf(entry.challengeId, entry.participationId),
      `${entry.id.slice(0, 8)}-${connectionId}.pcap`,
    )
    let stopped = false
    let failed = false
    const stream = createWriteStream(file, { flags: 'w' })
    const stop = (why: string, err?: unknown) => {
      if (stopped) return
      stopped = true
      log.warn({ err, container: entry.id }, `traffic capture stopped: ${why}`)
    }
    stream.on('error', (err) => {
      failed = true
      stop('the capture could not be written', err)
    })
    const out = (bytes: Buffer) => {
      if (stopped) return
      if (stream.writableLength > MAX_PENDING) return stop('the disk does not keep up')
      stream.write(bytes)
    }
    const pcap = createPcapConnection(out, player, container)
    out(fileHeader())
    pcap.metadata({
      Challenge: entry.challenge,
      ChallengeId: entry.challengeId,
      Team: entry.team,
      TeamId: entry.teamId,
      ContainerId: entry.id,
      Flag: entry.flag,
      Player: `${player.host}:${player.port}`,
      Connection: connectionId,
    })
    pcap.open()
    const recorder: ConnectionRecorder = {
      data(up, chunk) {
        if (!stopped) pcap.data(up, chunk)
      },
      close() {
        if (!stopped) pcap.close()
        stream.end()
        stream.once('close', () => {
          void (async () => {
            try {
              if (failed || !ours) return await discard()
              await mkdir(path.dirname(final), { recursive: true })
              await rename(file, final)
            } catch (err) {
              log.warn({ err, container: entry.id }, 'traffic capture could not be kept')
              await discard()?.catch(() => {})
            }
          })()
        })
      },
    }
    return recorder
  }
}
