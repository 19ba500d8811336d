/** A failed API call: the HTTP status and the server's `{title, status}` body when it sent one. */
export class ApiError extends Error {
  constructor(
    /** HTTP status (0 when the request never got an answer). */
    readonly httpStatus: number,
    /** The server's message, shown to the user as is. */
    readonly title: string,
    /** The body's `status`: equals the HTTP status except the game codes 10001 / 10002. */
    readonly status: number,
    readonly data?: unknown,
  ) {
    super(title)
    this.name = 'ApiError'
  }
}

export const GAME_NOT_STARTED = 10001
export const GAME_ENDED = 10002
