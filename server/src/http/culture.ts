import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'

/** The contract's cultures (api-contract §1.10); en-US is the default and the catalogue's own. */
export const CULTURES = [
  'en-US',
  'zh-CN',
  'zh-TW',
  'ja-JP',
  'id-ID',
  'ko-KR',
  'ru-RU',
  'de-DE',
  'fr-FR',
  'es-ES',
  'vi-VN',
] as const
export type Culture = (typeof CULTURES)[number]
export const DEFAULT_CULTURE: Culture = 'en-US'

/** culture → catalogue key → translated title (`{0}` placeholders kept). */
export type TitleTable = ReadonlyMap<Culture, Readonly<Record<string, string>>>

/**
 * Reads every `<culture>.json` of `dir` (the translators' title files: catalogue key → title)
 * once, at start. A file for an unknown culture or with non-string values is skipped rather than
 * trusted; a missing directory means English only. The server's own folder (`RUNTIME.locales`)
 * is checked complete before it starts (`checkRuntimeFiles`), so there it is never missing.
 */
export function loadTitles(dir: string): TitleTable {
  const table = new Map<Culture, Record<string, string>>()
  let names: string[]
  try {
    names = readdirSync(dir)
  } catch {
    return table
  }
  for (const name of names) {
    const culture = CULTURES.find((c) => `${c}.json` === name)
    if (!culture || culture === DEFAULT_CULTURE) continue
    const parsed: unknown = JSON.parse(readFileSync(path.join(dir, name), 'utf8'))
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) continue
    const titles: Record<string, string> = {}
    for (const [key, value] of Object.entries(parsed)) if (typeof value === 'string') titles[key] = value
    table.set(culture, titles)
  }
  return table
}

const TAG = /^[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8}){0,3}$/

/** Maps a language tag onto a supported culture: exact match, then the primary subtag. */
export function toCulture(value: string | undefined | null): Culture | null {
  const raw = value?.trim()
  if (!raw || raw.length > 35 || !TAG.test(raw)) return null
  const tag = raw.replace('_', '-').toLowerCase()
  const exact = CULTURES.find((c) => c.toLowerCase() === tag)
  if (exact) return exact
  const [primary, ...rest] = tag.split('-')
  if (primary === 'zh') return rest.some((p) => ['tw', 'hk', 'mo', 'hant'].includes(p)) ? 'zh-TW' : 'zh-CN'
  return CULTURES.find((c) => c.split('-')[0]?.toLowerCase() === primary) ?? null
}

/** `Accept-Language` tags by descending quality (`q=0` means "not this one"). */
function acceptedTags(header: string): string[] {
  return header
    .split(',')
    .slice(0, 20)
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';')
      const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean)
      return { tag: tag.trim(), q: q === undefined ? 1 : Number(q), index }
    })
    .filter((t) => t.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index)
    .map((t) => t.tag)
}

/** ASP.NET's culture cookie reads `c=zh-CN|uic=zh-CN`; a bare tag is taken too. */
function cookieCulture(value: string | undefined): Culture | null {
  if (!value) return null
  const parts = Object.fromEntries(
    value.split('|').map((p) => {
      const [k = '', v = ''] = p.split('=')
      return [k.trim(), v.trim()]
    }),
  )
  return toCulture(parts.uic || parts.c || value)
}

/** The request's culture, first match wins: `?culture=`, culture cookie, `Accept-Language`. */
export function cultureOf(input: {
  query?: unknown
  cookies?: Record<string, string | undefined>
  acceptLanguage?: string
}): Culture {
  const query = input.query as Record<string, unknown> | undefined
  const fromQuery = typeof query?.culture === 'string' ? toCulture(query.culture) : null
  if (fromQuery) return fromQuery
  const fromCookie = cookieCulture(input.cookies?.['.AspNetCore.Culture'])
  if (fromCookie) return fromCookie
  for (const tag of acceptedTags(input.acceptLanguage ?? '')) {
    const found = toCulture(tag)
    if (found) return found
  }
  return DEFAULT_CULTURE
}
