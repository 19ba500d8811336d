import { loadArtifacts } from 'lighthouse/core/lib/asset-saver.js'
import { LanternLargestContentfulPaint } from 'lighthouse/core/computed/metrics/lantern-largest-contentful-paint.js'
import { LanternFirstContentfulPaint } from 'lighthouse/core/computed/metrics/lantern-first-contentful-paint.js'
const dir = process.argv[2]
const a = await loadArtifacts(dir)
const data = { trace: a.Trace, devtoolsLog: a.DevtoolsLog, gatherContext: a.GatherContext, settings: a.settings, simulator: null, URL: a.URL, SourceMaps: a.SourceMaps }
const ctx = { computedCache: new Map() }
const fcp = await LanternFirstContentfulPaint.request(data, ctx)
const lcp = await LanternLargestContentfulPaint.request(data, ctx)
console.log('FCP', fcp.timing.toFixed(0), 'opt', fcp.optimisticEstimate.timeInMs.toFixed(0), 'pess', fcp.pessimisticEstimate.timeInMs.toFixed(0))
console.log('LCP', lcp.timing.toFixed(0), 'opt', lcp.optimisticEstimate.timeInMs.toFixed(0), 'pess', lcp.pessimisticEstimate.timeInMs.toFixed(0))
for (const which of ['optimisticEstimate', 'pessimisticEstimate']) {
  console.log('==', which)
  const rows = [...lcp[which].nodeTimings.entries()].sort((x, y) => x[1].startTime - y[1].startTime)
  let cpu = 0
  for (const [node, t] of rows) {
    const label = node.type === 'network' ? `NET ${node.request.priority} obs@${((node.startTime - rows[0][0].startTime) / 1000).toFixed(0)} deps[${node.getDependencies().map((d) => d.type === 'network' ? d.request.url.replace(/.*\//, '').slice(0, 12) : 'cpu@' + ((d.startTime - rows[0][0].startTime) / 1000).toFixed(0)).join(',')}] ${node.request.transferSize}B ${node.request.url.replace(/^http:\/\/127.0.0.1:\d+/, '')}` : `CPU ${(node.duration / 1000).toFixed(1)}ms obs@${((node.startTime - rows[0][0].startTime) / 1000).toFixed(0)} ${node.childEvents.filter((e) => e.dur > 2000).map((e) => e.name).slice(0, 4).join(',')}`
    if (node.type !== 'network') cpu += t.endTime - t.startTime
    if (process.argv[3] || node.type === 'network' || t.endTime - t.startTime > 20) console.log(t.startTime.toFixed(0).padStart(5), t.endTime.toFixed(0).padStart(5), label)
  }
  console.log('simulated CPU total', cpu.toFixed(0))
}
