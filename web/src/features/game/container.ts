/**
 * Where "Open" points for a container's entry: `http://host:port` for a bare address (the seed
 * opens every entry that way), the entry itself when it is an http(s) URL, and nothing for other
 * schemes (wss, tcp), which a browser tab cannot use.
 */
export function entryHref(entry: string): string | null {
  if (/^https?:\/\//i.test(entry)) return entry
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(entry)) return null
  return `http://${entry}`
}

/** When Extend unlocks: `renewalWindow` minutes before the container stops. */
export function renewalOpensAt(closeTime: number, renewalWindowMinutes: number): number {
  return closeTime - renewalWindowMinutes * 60_000
}

/**
 * The WebSocket address of a proxied container (`portMapping` PlatformProxy: the entry is the
 * container id): `ws(s)://<this site>/api/proxy/<id>`, secure when the page is.
 */
export function proxyUrl(entry: string, page: { protocol: string; host: string }): string {
  const scheme = page.protocol === 'https:' ? 'wss' : 'ws'
  return `${scheme}://${page.host}/api/proxy/${encodeURIComponent(entry)}`
}
