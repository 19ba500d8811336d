/**
 * What the rehearsal shows: the progress line, the summary (printed and as summary.json) and a
 * self-contained report.html with inline SVG plots, fault windows marked.
 */
import type { Audit } from './audit.ts'
import type { Sample } from './client.ts'
import type { FaultWindow } from './faults.ts'
import type { World } from './profile.ts'
import type { LogGroup, ResourcePoint } from './server.ts'

export const pct = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]! : 0

const sortNum = (xs: number[]) => [...xs].sort((a, b) => a - b)

/** Whether `t` lies inside a fault window. */
export function inFault(t: number, windows: FaultWindow[], open: { start: number } | null) {
  return windows.some((w) => t >= w.start && t <= w.end) || (open !== null && t >= open.start)
}

export function progressLine(samples: Sample[], from: number, now: number, since: number) {
  const recent = samples.slice(from)
  const errors = recent.filter((s) => s.status === 0 || s.status >= 500).length
  const ms = sortNum(recent.map((s) => s.ms))
  return `${(now / 1000).toFixed(0).padStart(5)} s  ${String(samples.length).padStart(7)} requests  +${(recent.length / Math.max(1, since / 1000)).toFixed(0)}/s  errors ${errors}  p99 ${pct(ms, 99)} ms`
}

/** Requests slow by nature (a container start runs Docker), left out of a fault's slowest request. */
const SLOW_BY_NATURE = new Set(['container-start', 'container-destroy'])

/** A fault's figures against the targets for several servers. */
export interface FaultFigure {
  kind: FaultWindow['kind']
  /** Seconds into the run. */
  at: number
  /** How long the part itself was away, in seconds (when known). */
  outageS: number | null
  /** Failed requests (no answer, or 5xx) overlapping the fault's window. */
  failed: number
  /** From the first failed answer to the last, in seconds (target ≤ 2 s). */
  failedSpanS: number
  /** Whole seconds of the run in which a failed request ended. */
  failedSeconds: number
  /** The slowest request overlapping the outage (the window when no outage is known), container starts and destroys left out. */
  slowestMs: number
  slowestKind: string
  /** Requests taking over 1 s among those. */
  over1s: number
  /** Requests started per second in the minute before the fault, and during its outage. */
  perSecondBefore: number
  perSecondDuring: number
  targets: { name: string; ok: boolean }[]
}

/** Per fault: how long requests failed, the slowest request and throughput while the part was away. */
export function faultFigures(samples: Sample[], faults: FaultWindow[]): FaultFigure[] {
  const overlaps = (s: Sample, a: number, b: number) => s.t <= b && s.t + s.ms >= a
  return faults.map((w) => {
    const failed = samples.filter((s) => (s.status === 0 || s.status >= 500) && overlaps(s, w.start, w.end))
    // When the failures reached players: a request sent before the fault that failed at its
    // start counts from its answer, not from when it was sent.
    const ends = failed.map((s) => s.t + s.ms)
    const first = Math.min(...ends)
    const last = Math.max(...ends)
    const span = failed.length ? (last - first) / 1000 : 0
    const from = w.outage?.start ?? w.start
    const to = w.outage?.end ?? w.end
    const during = samples.filter((s) => overlaps(s, from, to) && !SLOW_BY_NATURE.has(s.kind))
    const slowest = during.reduce<Sample | null>((a, s) => (!a || s.ms > a.ms ? s : a), null)
    const startedIn = (a: number, b: number) => samples.filter((s) => s.t >= a && s.t < b).length
    const before = startedIn(w.start - 60_000, w.start) / 60
    const dur = startedIn(from, to) / Math.max(1, (to - from) / 1000)
    const targets = [{ name: 'failures span ≤ 2 s', ok: span <= 2 }]
    if (w.kind === 'redis')
      targets.push(
        { name: 'slowest request ≤ 1 s', ok: (slowest?.ms ?? 0) <= 1000 },
        { name: 'throughput > half the minute before', ok: dur > before / 2 },
      )
    return {
      kind: w.kind,
      at: Math.round(w.start / 1000),
      outageS: w.outage ? +((w.outage.end - w.outage.start) / 1000).toFixed(1) : null,
      failed: failed.length,
      failedSpanS: +span.toFixed(2),
      failedSeconds: new Set(failed.map((s) => Math.floor((s.t + s.ms) / 1000))).size,
      slowestMs: slowest?.ms ?? 0,
      slowestKind: slowest?.kind ?? '',
      over1s: during.filter((s) => s.ms > 1000).length,
      perSecondBefore: +before.toFixed(1),
      perSecondDuring: +dur.toFixed(1),
      targets,
    }
  })
}

/** What `summary.json` holds: the audit's counts (its problems are in `failures`) and the run's figures. */
export interface Summary extends Omit<Audit, 'problems'> {
  ok: boolean
  failures: string[]
  teams: number
  minutes: number
  requests: number
  errors5xx: number
  errors5xxOutsideFaults: number
  networkErrors: number
  networkErrorsOutsideFaults: number
  statuses: Record<string, number>
  verdictTimeouts: number
  kinds: Record<string, { requests: number; p50: number; p99: number; max: number; errors: number }>
  verdictLatency: {
    count: number
    p50: number
    p99: number
    max: number
    /** By minute of the run (when the flag was posted): p50/p99, so a slow stretch shows where it was. */
    perMinute: { minute: number; count: number; p50: number; p99: number }[]
  }
  flagToBoard: { count: number; p50: number; p99: number; max: number }
  noticeDelivery: { notices: number; deliveries: number; expected: number; p50: number; p99: number }
  hub: World['hub']
  containers: World['containerStarts']
  faults: FaultWindow[]
  /** Per fault, figures against the targets (these do not fail the run). */
  faultFigures: FaultFigure[]
  /** Whether every fault met its targets. */
  faultTargetsMet: boolean
  faultsSkipped: string[]
  server: {
    cpuPercentMean: number
    cpuPercentMax: number
    rssMiBMax: number
    rssMiBLast: number
    unexpectedExits: string[]
    /** With several servers: each one's CPU mean and RSS at most. */
    byServer: Record<string, { cpuPercentMean: number; rssMiBMax: number }>
  }
  logErrors: LogGroup[]
  problems: string[]
}

const stats = (xs: number[]) => {
  const s = sortNum(xs)
  return { count: s.length, p50: pct(s, 50), p99: pct(s, 99), max: s.at(-1) ?? 0 }
}

export function summarise(o: {
  samples: Sample[]
  world: World
  audit: Audit
  faults: FaultWindow[]
  faultsSkipped: string[]
  resources: ResourcePoint[]
  logGroups: LogGroup[]
  unexpectedExits: string[]
  teams: number
  minutes: number
}): Summary {
  const { samples, world, audit, faults } = o
  const statuses: Record<string, number> = {}
  const byKind = new Map<string, Sample[]>()
  for (const s of samples) {
    statuses[s.status] = (statuses[s.status] ?? 0) + 1
    const list = byKind.get(s.kind)
    if (list) list.push(s)
    else byKind.set(s.kind, [s])
  }
  const kinds: Summary['kinds'] = {}
  for (const [kind, list] of [...byKind].sort()) {
    const ms = sortNum(list.map((s) => s.ms))
    kinds[kind] = {
      requests: list.length,
      p50: pct(ms, 50),
      p99: pct(ms, 99),
      max: ms.at(-1) ?? 0,
      errors: list.filter((s) => s.status === 0 || s.status >= 500).length,
    }
  }
  const e5 = samples.filter((s) => s.status >= 500)
  const outside5 = e5.filter((s) => !inFault(s.t, faults, null) && !inFault(s.t + s.ms, faults, null))
  const net = samples.filter((s) => s.status === 0)
  const outsideNet = net.filter((s) => !inFault(s.t, faults, null) && !inFault(s.t + s.ms, faults, null))
  const judged = world.acked.filter((a) => a.verdictAt !== null)
  const verdicts = judged.map((a) => a.verdictAt! - a.postAt)
  const verdictMinutes = new Map<number, number[]>()
  for (const a of judged) {
    const m = Math.floor(a.postAt / 60_000)
    const list = verdictMinutes.get(m)
    if (list) list.push(a.verdictAt! - a.postAt)
    else verdictMinutes.set(m, [a.verdictAt! - a.postAt])
  }
  const deliveries = world.notices.flatMap((n) => n.arrivals)
  const cpu = o.resources.map((r) => r.cpu)
  const rss = o.resources.map((r) => r.rss)
  const failures: string[] = []
  if (audit.lost) failures.push(`${audit.lost} acknowledged submission(s) lost`)
  if (audit.duplicates) failures.push(`${audit.duplicates} duplicate submission(s)`)
  if (audit.misjudged) failures.push(`${audit.misjudged} misjudged submission(s)`)
  if (audit.unjudged) failures.push(`${audit.unjudged} submission(s) never judged`)
  if (audit.bloodErrors) failures.push(`${audit.bloodErrors} blood error(s)`)
  if (audit.boardMismatches)
    failures.push(`${audit.boardMismatches} team(s) whose board differs from their accepted submissions`)
  if (!audit.boardsEqual) failures.push('the scoreboard differs between servers')
  if (outside5.length) failures.push(`${outside5.length} 5xx answer(s) outside fault windows`)
  if (outsideNet.length) failures.push(`${outsideNet.length} failed connection(s) outside fault windows`)
  for (const f of faults) if (!f.recovered) failures.push(`no recovery from fault ${f.kind}: ${f.note}`)
  if (o.unexpectedExits.length) failures.push(`server exited unexpectedly: ${o.unexpectedExits.join('; ')}`)
  const figures = faultFigures(samples, faults)
  return {
    ok: failures.length === 0,
    failures,
    teams: o.teams,
    minutes: o.minutes,
    requests: samples.length,
    errors5xx: e5.length,
    errors5xxOutsideFaults: outside5.length,
    networkErrors: net.length,
    networkErrorsOutsideFaults: outsideNet.length,
    statuses,
    acknowledged: audit.acknowledged,
    lost: audit.lost,
    duplicates: audit.duplicates,
    misjudged: audit.misjudged,
    unjudged: audit.unjudged,
    bloodErrors: audit.bloodErrors,
    boardMismatches: audit.boardMismatches,
    boardsEqual: audit.boardsEqual,
    verdictTimeouts: world.verdictTimeouts,
    kinds,
    verdictLatency: {
      ...stats(verdicts),
      perMinute: [...verdictMinutes]
        .sort((a, b) => a[0] - b[0])
        .map(([minute, ms]) => {
          const { count, p50, p99 } = stats(ms)
          return { minute, count, p50, p99 }
        }),
    },
    flagToBoard: stats(world.flagToBoard.map((x) => x.ms)),
    noticeDelivery: {
      notices: world.notices.length,
      deliveries: deliveries.length,
      expected: world.notices.reduce((a, n) => a + n.expected, 0),
      p50: pct(sortNum(deliveries), 50),
      p99: pct(sortNum(deliveries), 99),
    },
    hub: world.hub,
    containers: world.containerStarts,
    faults,
    faultFigures: figures,
    faultTargetsMet: figures.every((f) => f.targets.every((x) => x.ok)),
    faultsSkipped: o.faultsSkipped,
    server: {
      cpuPercentMean: cpu.length ? Math.round(cpu.reduce((a, b) => a + b, 0) / cpu.length) : 0,
      cpuPercentMax: Math.round(Math.max(0, ...cpu)),
      rssMiBMax: Math.round(Math.max(0, ...rss)),
      rssMiBLast: Math.round(rss.at(-1) ?? 0),
      unexpectedExits: o.unexpectedExits,
      byServer: Object.fromEntries(
        [...new Set(o.resources.map((r) => r.server))].map((name) => {
          const mine = o.resources.filter((r) => r.server === name)
          return [
            name,
            {
              cpuPercentMean: Math.round(mine.reduce((a, r) => a + r.cpu, 0) / mine.length),
              rssMiBMax: Math.round(Math.max(...mine.map((r) => r.rss))),
            },
          ]
        }),
      ),
    },
    logErrors: o.logGroups
      .map(({ at, ...g }) => ({
        ...g,
        at: [],
        outsideFaults: at.filter((t) => !inFault(t, faults, null)).length,
      }))
      .sort((a, b) => b.count - a.count),
    problems: audit.problems,
  }
}

/** Latency per kind over time: p50 / p99 per 30-second window, for the printed summary. */
function overTime(samples: Sample[], bucketMs: number) {
  const out = new Map<string, Map<number, number[]>>()
  for (const s of samples) {
    const b = Math.floor(s.t / bucketMs)
    const m = out.get(s.kind) ?? new Map<number, number[]>()
    const list = m.get(b)
    if (list) list.push(s.ms)
    else m.set(b, [s.ms])
    out.set(s.kind, m)
  }
  return out
}

export function printSummary(
  sum: Summary,
  samples: Sample[],
  resources: ResourcePoint[],
  say: (s: string) => void,
) {
  say('')
  say(`Rehearsal: ${sum.teams} teams, ${sum.minutes} min — ${sum.ok ? 'PASSED' : 'FAILED'}`)
  for (const f of sum.failures) say(`  ✗ ${f}`)
  say(`Requests ${sum.requests}; statuses ${JSON.stringify(sum.statuses)} (0 = failed connection)`)
  say(
    `5xx: ${sum.errors5xx} (${sum.errors5xxOutsideFaults} outside fault windows); failed connections ${sum.networkErrors} (${sum.networkErrorsOutsideFaults} outside)`,
  )
  say(
    `Audit: ${sum.acknowledged} acknowledged submissions; lost ${sum.lost}, duplicates ${sum.duplicates}, misjudged ${sum.misjudged}, unjudged ${sum.unjudged}; blood errors ${sum.bloodErrors}; board mismatches ${sum.boardMismatches}; boards equal: ${sum.boardsEqual}`,
  )
  say('Latency per kind (ms): requests  p50  p99  max  errors; then p50/p99 per minute')
  const bucket = 60_000
  const ot = overTime(samples, bucket)
  for (const [kind, k] of Object.entries(sum.kinds)) {
    const per = [...(ot.get(kind) ?? new Map<number, number[]>())]
      .sort((a, b) => a[0] - b[0])
      .map(([, ms]) => {
        const s = sortNum(ms)
        return `${pct(s, 50)}/${pct(s, 99)}`
      })
      .join(' ')
    say(
      `  ${kind.padEnd(18)} ${String(k.requests).padStart(7)} ${String(k.p50).padStart(5)} ${String(k.p99).padStart(6)} ${String(k.max).padStart(6)} ${String(k.errors).padStart(5)}   ${per}`,
    )
  }
  const v = sum.verdictLatency
  say(
    `Verdict latency (POST → final status, polling every 500 ms): ${v.count} verdicts, p50 ${v.p50} ms, p99 ${v.p99} ms, max ${v.max} ms; ${sum.verdictTimeouts} gave up`,
  )
  say(`  per minute, p50/p99: ${v.perMinute.map((m) => `${m.minute}: ${m.p50}/${m.p99}`).join('  ')}`)
  const b = sum.flagToBoard
  say(`Flag → board: ${b.count} solves watched, p50 ${b.p50} ms, p99 ${b.p99} ms, max ${b.max} ms`)
  const n = sum.noticeDelivery
  say(
    `Notices: ${n.notices} posted, ${n.deliveries} of ${n.expected} expected deliveries, p50 ${n.p50} ms, p99 ${n.p99} ms; hub connects ${sum.hub.connects}, drops ${sum.hub.drops}`,
  )
  const c = sum.containers
  if (c.ok || c.failed) say(`Containers: ${c.ok} started, ${c.failed} failed ${JSON.stringify(c.statuses)}`)
  say(
    `Server: CPU mean ${sum.server.cpuPercentMean} %, max ${sum.server.cpuPercentMax} % of a core; RSS max ${sum.server.rssMiBMax} MiB, at the end ${sum.server.rssMiBLast} MiB`,
  )
  const each = Object.entries(sum.server.byServer)
  if (each.length > 1)
    say(
      `  each: ${each.map(([name, x]) => `${name} CPU mean ${x.cpuPercentMean} %, RSS max ${x.rssMiBMax} MiB`).join('; ')}`,
    )
  if (resources.length) {
    const perMinute = new Map<number, { cpu: number[]; rss: number[] }>()
    for (const r of resources) {
      const m = Math.floor(r.t / 60_000)
      const e = perMinute.get(m) ?? { cpu: [], rss: [] }
      e.cpu.push(r.cpu)
      e.rss.push(r.rss)
      perMinute.set(m, e)
    }
    const avg = (xs: number[]) => Math.round(xs.reduce((a, b) => a + b, 0) / xs.length)
    say(
      `  per minute, CPU % / RSS MiB: ${[...perMinute].map(([m, e]) => `${m}: ${avg(e.cpu)}/${Math.round(Math.max(...e.rss))}`).join('  ')}`,
    )
  }
  for (const f of sum.faults)
    say(
      `Fault ${f.kind} at ${(f.start / 1000).toFixed(0)} s: ${f.note}${f.recovered ? '' : ' — NOT RECOVERED'}`,
    )
  for (const f of sum.faultFigures) say(`  ${figureLine(f)}`)
  for (const s of sum.faultsSkipped) say(`Fault skipped: ${s}`)
  if (sum.logErrors.length) {
    say('Server log lines at level ≥ 50 (error), by message:')
    for (const g of sum.logErrors.slice(0, 30))
      say(
        `  ${String(g.count).padStart(5)}× ${g.level === -1 ? '(stderr)' : `[${g.level}]`} ${g.msg} (first at ${g.first}; ${g.outsideFaults} outside fault windows)`,
      )
  } else say('Server log: no lines at level ≥ 50')
  for (const p of sum.problems.slice(0, 30)) say(`  audit: ${p}`)
}

/** One fault's figures in a line, targets marked ✓ or ✗. */
export function figureLine(f: FaultFigure) {
  return `${f.kind} at ${f.at} s${f.outageS === null ? '' : ` (away ${f.outageS} s)`}: ${f.failed} failed requests over ${f.failedSpanS} s (${f.failedSeconds} distinct s); slowest ${f.slowestMs} ms (${f.slowestKind || '-'}), ${f.over1s} over 1 s; ${f.perSecondDuring} requests/s vs ${f.perSecondBefore} the minute before — ${f.targets.map((t) => `${t.ok ? '✓' : '✗'} ${t.name}`).join(', ')}`
}

// ---- report.html ---------------------------------------------------------------------------

const esc = (s: string) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`)
const COLORS = [
  '#1f77b4',
  '#d62728',
  '#2ca02c',
  '#ff7f0e',
  '#9467bd',
  '#8c564b',
  '#e377c2',
  '#17becf',
  '#7f7f7f',
  '#bcbd22',
  '#393b79',
  '#637939',
  '#843c39',
  '#7b4173',
]

interface Series {
  name: string
  points: [number, number][]
}

/** Vertical lines across every plot: the contest's start and end. */
export interface Mark {
  t: number
  label: string
}

function plot(
  title: string,
  unit: string,
  series: Series[],
  endMs: number,
  faults: FaultWindow[],
  log = false,
  marks: Mark[] = [],
) {
  const W = 900
  const H = 260
  const L = 60
  const R = 170
  const T = 24
  const B = 30
  const all = series.flatMap((s) => s.points.map((p) => p[1]))
  const maxY = Math.max(1, ...all)
  const minY = log ? Math.max(1, Math.min(...all.filter((v) => v > 0), maxY)) : 0
  const y = (v: number) =>
    log
      ? T +
        (H - T - B) *
          (1 -
            (Math.log10(Math.max(v, minY)) - Math.log10(minY)) /
              Math.max(1e-9, Math.log10(maxY) - Math.log10(minY)))
      : T + (H - T - B) * (1 - v / maxY)
  const x = (t: number) => L + ((W - L - R) * Math.min(t, endMs)) / Math.max(1, endMs)
  const parts: string[] = []
  parts.push(`<text x="${L}" y="16" font-weight="bold">${esc(title)}</text>`)
  for (const f of faults)
    parts.push(
      `<rect x="${x(f.start).toFixed(1)}" y="${T}" width="${Math.max(2, x(f.end) - x(f.start)).toFixed(1)}" height="${H - T - B}" fill="#f5c6c6" opacity="0.6"><title>${esc(`${f.kind}: ${f.note}`)}</title></rect>`,
      `<text x="${(x(f.start) + 2).toFixed(1)}" y="${T + 10}" font-size="10" fill="#a00">${esc(f.kind)}</text>`,
    )
  for (const m of marks)
    parts.push(
      `<line x1="${x(m.t).toFixed(1)}" y1="${T}" x2="${x(m.t).toFixed(1)}" y2="${H - B}" stroke="#888" stroke-dasharray="4 3"/>`,
      `<text x="${(x(m.t) + 2).toFixed(1)}" y="${H - B - 4}" font-size="10" fill="#555">${esc(m.label)}</text>`,
    )
  parts.push(`<line x1="${L}" y1="${H - B}" x2="${W - R}" y2="${H - B}" stroke="#444"/>`)
  parts.push(`<line x1="${L}" y1="${T}" x2="${L}" y2="${H - B}" stroke="#444"/>`)
  const ticks = log
    ? Array.from({ length: 8 }, (_, i) => 10 ** i).filter((v) => v >= minY / 10 && v <= maxY * 10 && v >= 1)
    : [0, maxY / 4, maxY / 2, (3 * maxY) / 4, maxY]
  for (const v of ticks) {
    if (log && (v < minY || v > maxY)) continue
    parts.push(
      `<text x="${L - 4}" y="${y(v) + 4}" font-size="10" text-anchor="end">${v >= 100 ? Math.round(v) : +v.toFixed(1)}</text>`,
    )
    parts.push(`<line x1="${L}" y1="${y(v)}" x2="${W - R}" y2="${y(v)}" stroke="#eee"/>`)
  }
  const stepS = Math.max(10, Math.ceil(endMs / 1000 / 12 / 10) * 10)
  for (let s = 0; s * 1000 <= endMs; s += stepS)
    parts.push(`<text x="${x(s * 1000)}" y="${H - B + 14}" font-size="10" text-anchor="middle">${s} s</text>`)
  parts.push(`<text x="${W - R + 10}" y="${H - B + 14}" font-size="10">${esc(unit)}</text>`)
  series.forEach((s, i) => {
    const color = COLORS[i % COLORS.length]
    const d = s.points.map((p, j) => `${j ? 'L' : 'M'}${x(p[0]).toFixed(1)},${y(p[1]).toFixed(1)}`).join('')
    if (d) parts.push(`<path d="${d}" fill="none" stroke="${color}" stroke-width="1.5"/>`)
    parts.push(`<rect x="${W - R + 10}" y="${T + i * 14}" width="10" height="10" fill="${color}"/>`)
    parts.push(`<text x="${W - R + 24}" y="${T + i * 14 + 9}" font-size="11">${esc(s.name)}</text>`)
  })
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" font-family="sans-serif" font-size="12">${parts.join('')}</svg>`
}

export function html(
  sum: Summary,
  samples: Sample[],
  resources: ResourcePoint[],
  endMs: number,
  world: World,
  marks: Mark[] = [],
) {
  const bucket = Math.max(5000, Math.round(endMs / 120 / 1000) * 1000)
  const buckets = Math.ceil(endMs / bucket) + 1
  // Over time: what players and the organiser do during the contest (not set-up or audit).
  const quiet = new Set(['setup', 'audit', 'config', 'login', 'team', 'join', 'game'])
  const kinds = Object.keys(sum.kinds).filter((k) => !quiet.has(k))
  const p99: Series[] = []
  const p50: Series[] = []
  for (const kind of kinds) {
    const per: number[][] = Array.from({ length: buckets }, () => [])
    for (const s of samples)
      if (s.kind === kind) per[Math.min(buckets - 1, Math.floor(s.t / bucket))]!.push(s.ms)
    const pts = (p: number) =>
      per.flatMap((ms, i) =>
        ms.length ? [[i * bucket + bucket / 2, pct(sortNum(ms), p)] as [number, number]] : [],
      )
    p99.push({ name: kind, points: pts(99) })
    p50.push({ name: kind, points: pts(50) })
  }
  const through: number[] = new Array(buckets).fill(0)
  const e5: number[] = new Array(buckets).fill(0)
  const e0: number[] = new Array(buckets).fill(0)
  const e4: number[] = new Array(buckets).fill(0)
  for (const s of samples) {
    const i = Math.min(buckets - 1, Math.floor(s.t / bucket))
    through[i]!++
    if (s.status >= 500) e5[i]!++
    else if (s.status === 0) e0[i]!++
    else if (s.status >= 400) e4[i]!++
  }
  const perS = (xs: number[]) =>
    xs.map((v, i) => [i * bucket + bucket / 2, v / (bucket / 1000)] as [number, number])
  const servers = [...new Set(resources.map((r) => r.server))]
  const cpu = servers.map((name) => ({
    name,
    points: resources.filter((r) => r.server === name).map((r) => [r.t, r.cpu] as [number, number]),
  }))
  const rss = servers.map((name) => ({
    name,
    points: resources.filter((r) => r.server === name).map((r) => [r.t, r.rss] as [number, number]),
  }))
  const verdicts: Series = {
    name: 'POST → verdict',
    points: world.acked
      .filter((a) => a.verdictAt !== null)
      .sort((a, b) => a.postAt - b.postAt)
      .map((a) => [a.postAt, a.verdictAt! - a.postAt]),
  }
  const board: Series = {
    name: 'flag → board',
    points: [...world.flagToBoard].sort((a, b) => a.t - b.t).map((x) => [x.t, x.ms]),
  }
  const f = sum.faults
  const rows = Object.entries(sum.kinds)
    .map(
      ([k, v]) =>
        `<tr><td>${esc(k)}</td><td>${v.requests}</td><td>${v.p50}</td><td>${v.p99}</td><td>${v.max}</td><td>${v.errors}</td></tr>`,
    )
    .join('')
  const logs = sum.logErrors
    .map(
      (g) =>
        `<tr><td>${g.count}</td><td>${g.level === -1 ? 'stderr' : g.level}</td><td>${esc(g.msg)}</td><td>${g.first}</td></tr>`,
    )
    .join('')
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Pennant rehearsal</title>
<style>body{font-family:sans-serif;margin:20px;max-width:960px}table{border-collapse:collapse;margin:8px 0}td,th{border:1px solid #ccc;padding:2px 8px;text-align:right}td:first-child,th:first-child{text-align:left}.bad{color:#b00}.good{color:#080}svg{display:block;margin:12px 0}</style></head><body>
<h1>Pennant rehearsal: <span class="${sum.ok ? 'good' : 'bad'}">${sum.ok ? 'passed' : 'FAILED'}</span></h1>
<p>${sum.teams} teams, ${sum.minutes} min, ${sum.requests} requests. Acknowledged submissions ${sum.acknowledged}: lost ${sum.lost}, duplicates ${sum.duplicates}, misjudged ${sum.misjudged}, unjudged ${sum.unjudged}. Blood errors ${sum.bloodErrors}, board mismatches ${sum.boardMismatches}, boards equal ${sum.boardsEqual}. 5xx ${sum.errors5xx} (${sum.errors5xxOutsideFaults} outside faults). Fault windows are shaded red.</p>
${sum.failures.length ? `<ul class="bad">${sum.failures.map((x) => `<li>${esc(x)}</li>`).join('')}</ul>` : ''}
${plot('Latency p99 per kind', 'ms (log)', p99, endMs, f, true, marks)}
${plot('Latency p50 per kind', 'ms (log)', p50, endMs, f, true, marks)}
${plot('Throughput', 'requests/s', [{ name: 'all requests', points: perS(through) }], endMs, f, false, marks)}
${plot(
  'Errors',
  'per s',
  [
    { name: '5xx', points: perS(e5) },
    { name: 'failed connection', points: perS(e0) },
    { name: '4xx', points: perS(e4) },
  ],
  endMs,
  f,
)}
${plot('Verdict and flag-to-board latency', 'ms (log)', [verdicts, board], endMs, f, true, marks)}
${plot('Server CPU', '% of a core', cpu, endMs, f, false, marks)}
${plot('Server RSS', 'MiB', rss, endMs, f, false, marks)}
<h2>Requests</h2><table><tr><th>kind</th><th>requests</th><th>p50 ms</th><th>p99 ms</th><th>max ms</th><th>errors</th></tr>${rows}</table>
<p>Verdict latency: p50 ${sum.verdictLatency.p50} ms, p99 ${sum.verdictLatency.p99} ms (${sum.verdictLatency.count}). Flag → board: p50 ${sum.flagToBoard.p50} ms, p99 ${sum.flagToBoard.p99} ms (${sum.flagToBoard.count}). Notices: ${sum.noticeDelivery.deliveries} of ${sum.noticeDelivery.expected} deliveries, p99 ${sum.noticeDelivery.p99} ms.</p>
<h2>Faults</h2><ul>${f.map((w) => `<li>${(w.start / 1000).toFixed(0)} s: ${esc(w.kind)} — ${esc(w.note)}</li>`).join('')}${sum.faultFigures.map((x) => `<li class="${x.targets.every((t) => t.ok) ? 'good' : 'bad'}">${esc(figureLine(x))}</li>`).join('')}${sum.faultsSkipped.map((s) => `<li>skipped: ${esc(s)}</li>`).join('')}</ul>
<h2>Server log at level ≥ 50</h2>${logs ? `<table><tr><th>count</th><th>level</th><th>message</th><th>first</th><th>outside faults</th></tr>${logs}</table>` : '<p>none</p>'}
${sum.problems.length ? `<h2>Audit findings</h2><ul>${sum.problems.map((p) => `<li>${esc(p)}</li>`).join('')}</ul>` : ''}
</body></html>`
}
