/** Fills `{name}` placeholders and appends the query: the resolved URL is also the cache key. */
export function resolveUrl(
  path: string,
  params?: { path?: Record<string, unknown>; query?: Record<string, unknown> },
): string {
  let url = path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params?.path?.[name]
    if (value === undefined || value === null) throw new Error(`missing path parameter ${name} for ${path}`)
    return encodeURIComponent(String(value))
  })
  const query = Object.entries(params?.query ?? {}).filter(
    ([, v]) => v !== undefined && v !== null && v !== '',
  )
  if (query.length) url += `?${new URLSearchParams(query.map(([k, v]) => [k, String(v)])).toString()}`
  return url
}
