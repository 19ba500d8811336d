/**
 * The link between a challenge folder and its server challenge: a marker line at the end of the
 * description, `<!-- pennant:key web/sqli -->`. It travels with the challenge (any checkout, any
 * machine finds it; no state file to lose or commit), costs no API change, and Markdown renders
 * it as nothing. Players who read the raw API see the folder path, nothing more.
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

/** The key a stored description carries, or null. */
export function keyOf(content: string): string | null {
  const m = MARKER.exec(content)
  if (!m) return null
  try {
    return decodeURIComponent(m[1]!)
  } catch {
    return null
  }
}
