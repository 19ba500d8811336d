/**
 * The link between a challenge folder and its server challenge: the challenge's `sourceKey`
 * (a server field, unique per game, shown to organisers only). Before that field existed the
 * link was a marker line at the end of the description, `<!-- pennant:key web/sqli -->`; it is
 * still read, so a challenge synced then is found, and the next sync moves its key to the field
 * and drops the line.
 */
const MARKER = /(?:\n\n)?<!-- pennant:key (\S+) -->\s*$/

/** Keys are folder paths; `%`, `>` and whitespace are escaped so the marker stays one comment. */
const escapeKey = (key: string) =>
  key.replace(/[%>\s]/g, (c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0').toUpperCase()}`)

export const markerOf = (key: string) => `<!-- pennant:key ${escapeKey(key)} -->`

/** The description as stored on the server: the file's text, then the marker. */
export function withKey(content: string, key: string): string {
  const body = content.trimEnd()
  return body ? `${body}\n\n${markerOf(key)}` : markerOf(key)
}

/** The folder a server challenge is tied to: its source key, else the old marker, else null. */
export const linkOf = (s: { sourceKey?: string | null; content: string }): string | null =>
  s.sourceKey || keyOf(s.content)

/** The key a stored description carries (the old link), or null. */
export function keyOf(content: string): string | null {
  const m = MARKER.exec(content)
  if (!m) return null
  try {
    return decodeURIComponent(m[1]!)
  } catch {
    return null
  }
}
