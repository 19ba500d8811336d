/** A language's strings: nested objects of strings (or string lists), keyed by area first. */
export type Messages = { [key: string]: string | string[] | Messages }

function lookup(messages: Messages | undefined, key: string): string | string[] | undefined {
  let node: unknown = messages
  for (const part of key.split('.')) {
    if (!node || typeof node !== 'object' || Array.isArray(node)) return undefined
    node = (node as Messages)[part]
  }
  return typeof node === 'string' || Array.isArray(node) ? node : undefined
}

/** `{{name}}` placeholders, filled without escaping (React escapes what it renders). */
export function interpolate(text: string, values?: Record<string, unknown>): string {
  if (!values) return text
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) =>
    name in values ? String(values[name] ?? '') : whole,
  )
}

/**
 * Looks a key up in the chosen language, then in English; a missing key shows itself, so a
 * gap is visible rather than blank. Lists (e.g. random placeholders) come back as arrays when
 * `asList` is used.
 */
export function translate(
  chain: readonly (Messages | undefined)[],
  key: string,
  values?: Record<string, unknown>,
): string {
  for (const messages of chain) {
    const found = lookup(messages, key)
    if (typeof found === 'string') return interpolate(found, values)
  }
  return key
}

export function translateList(chain: readonly (Messages | undefined)[], key: string): string[] {
  for (const messages of chain) {
    const found = lookup(messages, key)
    if (Array.isArray(found)) return found
  }
  return []
}
