/**
 * What happens in the platform that live screens want to hear about, as plain JSON-safe
 * records (times in epoch ms), so a Redis backplane can carry them unchanged. Services publish;
 * the hubs subscribe. Enum values are their names, as on the wire.
 */
export interface BusTopics {
  /** A notice was posted (organisers' Normal, NewChallenge, NewHint, bloods). Not on edits. */
  'game.notice': { gameId: number; notice: { id: number; time: number; type: string; values: string[] } }
  /** A game event was stored (FlagSubmit, CheatDetected, ContainerStart, ContainerDestroy). */
  'game.event': {
    gameId: number
    event: { type: string; values: string[]; time: number; user: string; team: string }
  }
  /** A submission was judged (after its transaction committed), with its final status. */
  'submission.judged': {
    gameId: number
    submission: {
      answer: string
      status: string
      time: number
      user: string
      team: string
      challenge: string
    }
  }
  /** A record was written to the admin log. */
  'log.record': {
    time: number
    name: string
    level: string
    ip: string | null
    msg: string
    status: string | null
  }
  /** A game's scoreboard was rebuilt: `etag` is the tag its next read answers with. */
  'board.changed': { gameId: number; etag: string }

  // What every server must hear to keep its in-memory state right (with Redis, the other
  // servers hear it too; alone, the subscribers in this process act on it at once).
  /**
   * A server rendered a game's board for all (`board-share.ts`): the bytes wait in Redis under
   * its tag; `solves` is how many solves it shows, `at` its update time.
   */
  'board.rendered': { gameId: number; etag: string; at: number; solves: number }
  /** A judged solve, for every server's in-memory scoreboard. */
  'board.solve': {
    gameId: number
    solve: {
      challengeId: number
      participationId: number
      userName: string | null
      time: number
      id?: number
    }
    acceptedCount: number
  }
  /** A submission's verdict, for every server's verdict memo (status polls). */
  'submission.verdict': {
    submissionId: number
    userId: string | null
    gameId: number
    challengeId: number
    status: 'Accepted' | 'WrongAnswer' | 'CheatDetected' | 'NotFound'
  }
  /**
   * Cached lookups to drop. `game`: something of one game changed (`edited`: the game's own
   * settings, so its board is dropped at once); `membership`: teams or members changed;
   * `user` / `session`: a user's sessions (all but `keep`) or one session ended or changed.
   */
  'cache.forget':
    | { what: 'game'; gameId: number; edited: boolean }
    | { what: 'membership' }
    | { what: 'user'; userId: string; keep?: string }
    | { what: 'session'; sessionId: string }
    /** A container was removed: proxies forget where it was. */
    | { what: 'container'; containerId: string }
  /** An admin saved settings (incl. our additions' switches): every server reloads them. */
  'settings.changed': Record<string, never>
  /**
   * This server may have missed messages from the others (its Redis subscription was down): its
   * hubs tell their clients to reconnect, and clients read again what they show. Never sent to
   * the other servers.
   */
  'live.resync': Record<string, never>
}
export type Topic = keyof BusTopics

/**
 * The event bus port. `publish` never throws and never waits for subscribers (a slow or failing
 * listener cannot hold up a judge batch). The in-process implementation delivers to this
 * process's subscribers; the Redis implementation also publishes to a channel and delivers what
 * arrives on it, so every replica's hubs hear every replica's events.
 */
export interface Bus {
  publish<T extends Topic>(topic: T, message: BusTopics[T]): void
  /** Returns the unsubscribe function. */
  subscribe<T extends Topic>(topic: T, handler: (message: BusTopics[T]) => void): () => void
  close(): Promise<void>
  /** Resolves once messages from other servers are heard (Redis); at once in process. */
  ready?(): Promise<void>
}
