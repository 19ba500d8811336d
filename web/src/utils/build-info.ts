/** What the build stamps into the client (vite.config.ts `define`). */
export interface BuildInfo {
  sha: string
  rawTag: string
  timestamp: string
  buildTime: string
  repo: string
}

/**
 * Build info is shown only when it is plausible (seed section 5): a 20-character timestamp, a
 * 40-character commit, a parsable build time, and a tag that, without its `-suffix`, is
 * `vX.Y.Z` or `develop`. Anything else reads as "not an official build".
 */
export function isValidBuildInfo(info: Partial<BuildInfo> | null | undefined): info is BuildInfo {
  if (!info) return false
  const { sha, rawTag, timestamp, buildTime } = info
  if (typeof timestamp !== 'string' || timestamp.length !== 20) return false
  if (typeof sha !== 'string' || sha.length !== 40) return false
  if (typeof buildTime !== 'string' || Number.isNaN(Date.parse(buildTime))) return false
  if (typeof rawTag !== 'string') return false
  const tag = rawTag.split('-')[0] ?? ''
  return /^v\d+\.\d+\.\d+$/.test(tag) || tag === 'develop'
}
