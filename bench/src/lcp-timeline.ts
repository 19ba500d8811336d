/**
 * Where Lighthouse's simulated LCP comes from: its model (lantern) rebuilt from one audit's
 * artifacts, printed as the simulated timeline of what the largest paint waited for (requests
 * with their priority and size, and CPU tasks over 20 ms). `npm run lighthouse -- --explain`.
 */
import { LanternFirstContentfulPaint } from 'lighthouse/core/computed/metrics/lantern-first-contentful-paint.js'
import { LanternLargestContentfulPaint } from 'lighthouse/core/computed/metrics/lantern-largest-contentful-paint.js'

interface LanternNode {
  type: 'network' | 'cpu'
  startTime: number
  duration: number
  request: { url: string; priority: string; transferSize: number; protocol: string }
}
interface Estimate {
  timeInMs: number
  nodeTimings: Map<LanternNode, { startTime: number; endTime: number }>
}

export async function lcpTimeline(artifacts: Record<string, unknown>): Promise<string[]> {
  const settings = artifacts.settings as object
  const data = {
    trace: artifacts.Trace,
    devtoolsLog: artifacts.DevtoolsLog,
    gatherContext: artifacts.GatherContext,
    settings,
    simulator: null,
    URL: artifacts.URL,
    SourceMaps: artifacts.SourceMaps,
  }
  const context = { computedCache: new Map() }
  // The artifacts are the audit's own; Lighthouse's input types are not exported whole.
  const fcp = (await LanternFirstContentfulPaint.request(data as never, context as never)) as {
    timing: number
  }
  const lcp = (await LanternLargestContentfulPaint.request(data as never, context as never)) as unknown as {
    timing: number
    optimisticEstimate: Estimate
    pessimisticEstimate: Estimate
  }
  const lines = [
    `simulated FCP ${fcp.timing.toFixed(0)} ms, LCP ${lcp.timing.toFixed(0)} ms (the mean of an optimistic ${lcp.optimisticEstimate.timeInMs.toFixed(0)} and a pessimistic ${lcp.pessimisticEstimate.timeInMs.toFixed(0)} ms); the pessimistic timeline:`,
    '  start    end  what',
  ]
  const rows = [...lcp.pessimisticEstimate.nodeTimings].sort((a, b) => a[1].startTime - b[1].startTime)
  for (const [node, t] of rows) {
    const took = t.endTime - t.startTime
    const what =
      node.type === 'network'
        ? `${node.request.protocol} ${node.request.priority} ${(node.request.transferSize / 1024).toFixed(1)} KiB ${node.request.url.replace(/^https?:\/\/[^/]+/, '')}`
        : `main thread, ${(node.duration / 1000).toFixed(1)} ms observed`
    if (node.type === 'network' || took > 20)
      lines.push(`  ${t.startTime.toFixed(0).padStart(5)}  ${t.endTime.toFixed(0).padStart(5)}  ${what}`)
  }
  return lines
}
