import createClient, { type Middleware } from 'openapi-fetch'
import { currentLanguage } from '@/i18n/languages'
import { ApiError } from './error'
import type { paths } from './schema.gen'

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/** The XSRF double-submit token the server sets as a cookie (decisions.md item 4). */
export function xsrfToken(): string | null {
  const match = document.cookie.match(/(?:^|;\s*)XSRF-TOKEN=([^;]*)/)
  return match?.[1] ? decodeURIComponent(match[1]) : null
}

/** Headers every request carries: the interface language and, when changing state, the XSRF token. */
export function commonHeaders(method: string): Record<string, string> {
  const headers: Record<string, string> = { 'Accept-Language': currentLanguage() }
  const token = SAFE_METHODS.has(method.toUpperCase()) ? null : xsrfToken()
  if (token) headers['X-XSRF-TOKEN'] = token
  return headers
}

const headersMiddleware: Middleware = {
  onRequest({ request }) {
    for (const [name, value] of Object.entries(commonHeaders(request.method)))
      request.headers.set(name, value)
    return request
  },
}

/** The typed client over the generated `paths`; same origin, cookie auth. */
export const api = createClient<paths>({ baseUrl: '', credentials: 'same-origin' })
api.use(headersMiddleware)

type Result<T> = { data?: T; error?: unknown; response: Response }

/** Turns openapi-fetch's result into the data or a thrown {@link ApiError}. */
export async function unwrap<T>(pending: Promise<Result<T>>): Promise<T> {
  let result: Result<T>
  try {
    result = await pending
  } catch (err) {
    throw new ApiError(0, err instanceof Error ? err.message : String(err), 0)
  }
  const { data, error, response } = result
  if (response.ok) return data as T
  const body = (error && typeof error === 'object' ? error : {}) as { title?: unknown; status?: unknown }
  const title = typeof body.title === 'string' && body.title ? body.title : response.statusText
  const status = typeof body.status === 'number' ? body.status : response.status
  throw new ApiError(response.status, title, status, error)
}
