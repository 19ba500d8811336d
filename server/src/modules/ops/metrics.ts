import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client'

/**
 * What `/metrics` tells, in Prometheus' text format. One registry per app (tests build several
 * in one process). Figures that already live somewhere (queue lengths, connection counts, the
 * pool's) are read when scraped through `gauge(…, collect)`; what happens over time (requests,
 * judgements, rebuilds) is observed by the services through the small hooks below, so services
 * never import prom-client.
 */
export function createMetrics() {
  const registry = new Registry()
  // Process CPU, memory, event-loop delay, garbage collection, open handles (Node's own).
  collectDefaultMetrics({ register: registry, prefix: 'pennant_' })

  const requests = new Histogram({
    name: 'pennant_http_request_duration_seconds',
    help: 'HTTP request latency by route pattern (not the raw URL), method and status code',
    labelNames: ['method', 'route', 'status_code'] as const,
    // From a cached board read (~1 ms) to a slow upload.
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  })
  const judgeLag = new Histogram({
    name: 'pennant_judge_lag_seconds',
    help: 'From a flag submission to its verdict being committed',
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers: [registry],
  })
  const judged = new Counter({
    name: 'pennant_judge_verdicts_total',
    help: 'Submissions judged by this server, by result',
    labelNames: ['result'] as const,
    registers: [registry],
  })
  const rebuilds = new Histogram({
    name: 'pennant_scoreboard_rebuild_seconds',
    help: 'Scoreboard rebuilds: full (read from the database and rendered) or incremental (solves added in memory, rendered)',
    labelNames: ['kind'] as const,
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  })

  return {
    registry,

    /** Adds a gauge whose value(s) are read at each scrape; a failing reader skips that scrape. */
    gauge<L extends string = never>(
      name: string,
      help: string,
      read: (set: (value: number, labels?: Partial<Record<L, string>>) => void) => void | Promise<void>,
      labelNames: readonly L[] = [],
    ) {
      new Gauge<L>({
        name,
        help,
        labelNames,
        registers: [registry],
        async collect() {
          this.reset()
          try {
            await read((value, labels) => (labels ? this.set(labels, value) : this.set(value)))
          } catch {
            // An unreadable figure (the database is down) is left out, not reported as zero.
            this.reset()
          }
        },
      })
    },

    /** A counter that lives elsewhere (it only grows), read at each scrape. */
    counter(name: string, help: string, read: () => number) {
      let reported = 0
      new Counter({
        name,
        help,
        registers: [registry],
        collect() {
          const now = read()
          if (now > reported) this.inc(now - reported)
          reported = now
        },
      })
    },

    request(method: string, route: string, statusCode: number, seconds: number) {
      requests.observe({ method, route, status_code: String(statusCode) }, seconds)
    },

    verdict(result: string, lagMs: number) {
      judged.inc({ result })
      judgeLag.observe(Math.max(0, lagMs) / 1000)
    },

    rebuilt(kind: 'full' | 'incremental', seconds: number) {
      rebuilds.observe({ kind }, seconds)
    },

    async text(): Promise<string> {
      return registry.metrics()
    },
    contentType: registry.contentType,
  }
}
export type Metrics = ReturnType<typeof createMetrics>
