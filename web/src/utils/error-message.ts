/**
 * The seed's error display rules (section 8): the message is the first available of the error
 * itself when it is a string, its `title`, its response body's `title`, its `message`, its
 * `cause`; otherwise the "unknown" text. The title is "try later" for HTTP 429.
 */
export function errorMessage(err: unknown, unknown: string): string {
  if (typeof err === 'string' && err) return err
  if (!err || typeof err !== 'object') return unknown
  const e = err as {
    title?: unknown
    response?: { data?: { title?: unknown } }
    message?: unknown
    cause?: unknown
  }
  for (const candidate of [e.title, e.response?.data?.title, e.message, e.cause]) {
    if (typeof candidate === 'string' && candidate) return candidate
  }
  return unknown
}

export type ErrorTitleKey =
  | 'common.error.try_later'
  | 'common.error.encountered'
  | 'common.error.refused'
  | 'common.error.sign_in'
  | 'common.error.forbidden'
  | 'common.error.not_found'
  | 'common.error.too_large'
  | 'common.error.server'
  | 'common.error.network'

/**
 * Which title goes above an error toast: what happened, told by the HTTP status (the message
 * under it says why). A failed fetch with no status is the network.
 */
export function errorTitleKey(err: unknown): ErrorTitleKey {
  if (err instanceof TypeError) return 'common.error.network'
  const status =
    err && typeof err === 'object'
      ? ((err as { httpStatus?: number }).httpStatus ??
        (err as { response?: { status?: number } }).response?.status)
      : undefined
  if (status === 0) return 'common.error.network'
  if (status === 429) return 'common.error.try_later'
  if (status === 401) return 'common.error.sign_in'
  if (status === 403) return 'common.error.forbidden'
  if (status === 404) return 'common.error.not_found'
  if (status === 413) return 'common.error.too_large'
  if (status !== undefined && status >= 500) return 'common.error.server'
  if (status !== undefined && status >= 400) return 'common.error.refused'
  return 'common.error.encountered'
}
