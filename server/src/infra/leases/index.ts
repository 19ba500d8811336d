/**
 * Leases: background work that must run on one server at a time (the container reaper, log
 * trimming, the judge's sweep) runs only where its lease is held. A lease moves to another
 * server when its holder dies (its database session ends) or lets it go at shutdown.
 */
export interface Leases {
  /** Whether this server holds the named lease now, taking it when it is free. */
  hold(name: string): Promise<boolean>
  /** Lets every lease go for good (graceful shutdown: another server takes the work over). */
  release(): Promise<void>
}

/** One server alone (PGlite: only one process can open its data folder): every lease is ours. */
export function createLocalLeases(): Leases {
  let released = false
  return {
    hold: async () => !released,
    async release() {
      released = true
    },
  }
}
