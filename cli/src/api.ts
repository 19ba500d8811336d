import type { ChallengeUpdateModel, ServerChallenge, ServerChallengeInfo } from './server-model.ts'

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

  async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = {
      authorization: `Bearer ${opts.token}`,
      accept: 'application/json',
    }
    let payload: BodyInit | undefined
    if (body instanceof FormData) payload = body
    else if (body !== undefined) {
      headers['content-type'] = 'application/json'
      payload = JSON.stringify(body)
    }
    let res: Response
    try {
      res = await doFetch(`${base}${path}`, { method, headers, body: payload })
    } catch (err) {
      throw new ApiError(0, `cannot reach ${base}: ${(err as Error).cause ?? (err as Error).message}`)
    }
    const text = await res.text()
    if (!res.ok) {
      let title = text.slice(0, 200)
      try {
        title = (JSON.parse(text) as { title?: string }).title ?? title
      } catch {}
      throw new ApiError(res.status, `${method} ${path}: HTTP ${res.status}: ${title}`)
    }
    if (text === '') return undefined as T
    try {
      return JSON.parse(text) as T
    } catch {
      throw new ApiError(
        res.status,
        `${method} ${path}: the answer is not JSON (is PENNANT_URL the server's address?)`,
      )
    }
  }
  const get = <T>(path: string) => call<T>('GET', path)
  const challenges = (game: number) => `/api/edit/games/${game}/challenges`

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
    createChallenge: (
      game: number,
      body: { title: string; category: string; type: string; sourceKey: string },
    ) => call<ServerChallenge>('POST', challenges(game), body),
    updateChallenge: (game: number, id: number, body: ChallengeUpdateModel) =>
      call<ServerChallenge>('PUT', `${challenges(game)}/${id}`, body),
    deleteChallenge: (game: number, id: number) => call<void>('DELETE', `${challenges(game)}/${id}`),
    addFlags: (game: number, id: number, flags: string[]) =>
      call<void>(
        'POST',
        `${challenges(game)}/${id}/flags`,
        flags.map((flag) => ({ flag })),
      ),
    deleteFlag: (game: number, id: number, flagId: number) =>
      call<string>('DELETE', `${challenges(game)}/${id}/flags/${flagId}`),
    setAttachment: (
      game: number,
      id: number,
      body: { attachmentType: string; fileHash?: string; remoteUrl?: string },
    ) => call<void>('POST', `${challenges(game)}/${id}/attachment`, body),
    /** Builds `tag` on the server's container engine from a build context (a tar archive). */
    buildImage(tag: string, context: Uint8Array) {
      const form = new FormData()
      form.append('file', new Blob([new Uint8Array(context)]), 'context.tar')
      return call<{ tag: string; id: string; log: string[] }>(
        'POST',
        `/api/edit/images?tag=${encodeURIComponent(tag)}`,
        form,
      )
    },
    /** Uploads one file as an asset; returns its hash. */
    async upload(name: string, bytes: Uint8Array): Promise<string> {
      const form = new FormData()
      form.append('files', new Blob([new Uint8Array(bytes)]), name)
      const [file] = await call<{ hash: string; name: string }[]>(
        'POST',
        `/api/assets?filename=${encodeURIComponent(name)}`,
        form,
      )
      if (!file) throw new ApiError(400, `POST /api/assets: no file stored for ${name}`)
      return file.hash
    },
  }
}
export type Api = ReturnType<typeof createApi>
