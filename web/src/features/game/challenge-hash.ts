/**
 * The URL hash that names an open challenge, `#<id>-<title-with-dashes>`: the id is what counts,
 * the title only makes a shared link readable.
 */
export function challengeHash(id: number, title: string): string {
  const slug = title.trim().replace(/\s+/g, '-')
  return slug ? `#${id}-${slug}` : `#${id}`
}

/** The challenge id in a URL hash, or null when the hash names none. */
export function parseChallengeHash(hash: string): number | null {
  const match = /^#?(\d{1,10})(?:-|$)/.exec(hash)
  if (!match) return null
  const id = Number(match[1])
  return Number.isSafeInteger(id) && id > 0 ? id : null
}
