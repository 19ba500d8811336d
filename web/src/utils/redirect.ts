/**
 * Where to go after signing in: the `?from=` path when it is a path on this site, else home.
 * Only a single leading "/" is accepted, so `//evil.example` (protocol-relative), `/\evil`
 * (browsers read "\" as "/"), `https://…` and `javascript:` never leave the site.
 */
export function safeRedirect(from: string | null | undefined, fallback = '/'): string {
  if (!from) return fallback
  if (!from.startsWith('/') || from.startsWith('//') || from.startsWith('/\\')) return fallback
  // Control characters and whitespace are stripped by URL parsers and can hide a second slash.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching them is the point
  if (/[\u0000-\u001f\u007f\s]/.test(from)) return fallback
  try {
    // The resolved URL must stay on the origin we resolved against.
    const base = 'https://pennant.invalid'
    if (new URL(from, base).origin !== base) return fallback
  } catch {
    return fallback
  }
  return from
}
