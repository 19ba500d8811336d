/// <reference lib="webworker" />
import { solvePow } from './pow'

/** Messages between the HashPow field and this worker. */
export type PowRequest = { challenge: string; difficulty: number }
export type PowReply = { type: 'progress'; hashes: number } | { type: 'done'; answer: string; hashes: number }

declare const self: DedicatedWorkerGlobalScope

// One search per worker: the field starts a new worker for a new challenge and terminates the
// old one, so a long search never has to be interrupted from inside.
self.onmessage = (event: MessageEvent<PowRequest>) => {
  const { challenge, difficulty } = event.data
  const prefix = crypto.getRandomValues(new Uint32Array(1))[0]!
  const { answer, hashes } = solvePow(challenge, difficulty, {
    prefix,
    onProgress: (n) => self.postMessage({ type: 'progress', hashes: n } satisfies PowReply),
  })
  self.postMessage({ type: 'done', answer, hashes } satisfies PowReply)
}
