import type { ServerChallenge, ServerChallengeInfo } from './server-model.ts'

/** A failed API call, with the server's `{title, status}` when it sent one. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message)
  }
}

export interface ApiOptions {
  /** Server origin, e.g. `https://ctf.example.org`. */
  url: string
  /** An API token (`POST /api/tokens`), sent as `Authorization: Bearer`. */
  token: string
  fetch?: typeof fetch
}

/** The edit API calls the tool makes. */
export function createApi(opts: ApiOptions) {
  const base = opts.url.replace(/\/+$/, '')
  const doFetch = opts.fetch ?? fetch

  async function get<T>(path: string): Promise<T> {
    let res: Response
    try {
      res = await doFetch(`${base}${path}`, {
        headers: { authorization: `Bearer ${opts.token}`, accept: 'application/json' },
      })
    } catch (err) {
      throw new ApiError(0, `cannot reach ${base}: ${(err as Error).cause ?? (err as Error).message}`)
    }
    const text = await res.text()
    if (!res.ok) {
      let title = text.slice(0, 200)
      try {
        title = (JSON.parse(text) as { title?: string }).title ?? title
      } catch {}
      throw new ApiError(res.status, `GET ${path}: HTTP ${res.status}: ${title}`)
    }
    try {
      return JSON.parse(text) as T
    } catch {
      throw new ApiError(
        res.status,
        `GET ${path}: the answer is not JSON (is PENNANT_URL the server's address?)`,
      )
    }
  }

  return {
    listChallenges: (game: number) => get<ServerChallengeInfo[]>(`/api/edit/games/${game}/challenges`),
    getChallenge: (game: number, id: number) =>
      get<ServerChallenge>(`/api/edit/games/${game}/challenges/${id}`),
    /** Every challenge of the game in detail, one request each, in id order. */
    async allChallenges(game: number): Promise<ServerChallenge[]> {
      await get(`/api/edit/games/${game}`) // 404 for a missing game (the list alone says [])
      const list = await this.listChallenges(game)
      const out: ServerChallenge[] = []
      for (const c of list) out.push(await this.getChallenge(game, c.id))
      return out
    },
  }
}
export type Api = ReturnType<typeof createApi>
