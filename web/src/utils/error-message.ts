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

/** Which title key goes above an error toast. */
export function errorTitleKey(err: unknown): 'common.error.try_later' | 'common.error.encountered' {
  const status =
    err && typeof err === 'object'
      ? ((err as { httpStatus?: number }).httpStatus ??
        (err as { response?: { status?: number } }).response?.status)
      : undefined
  return status === 429 ? 'common.error.try_later' : 'common.error.encountered'
}
