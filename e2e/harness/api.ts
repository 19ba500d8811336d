import { type APIRequestContext, type APIResponse, request } from '@playwright/test'

/** `accountPolicy` of `GET /api/admin/config`. */
export interface AccountPolicy {
  allowRegister: boolean
  activeOnRegister: boolean
  useCaptcha: boolean
  emailConfirmationRequired: boolean
  emailDomainList: string
}

/** The three sections of `GET /api/admin/config`. */
export interface AdminConfig {
  accountPolicy: AccountPolicy
  globalConfig: Record<string, unknown>
  containerPolicy: Record<string, unknown>
}

/** A failed API call: the status and the body are kept for assertions. */
export class ApiError extends Error {
  constructor(
    readonly method: string,
    readonly path: string,
    readonly status: number,
    readonly body: string,
  ) {
    super(`${method} ${path} answered ${status}: ${body.slice(0, 500)}`)
  }
}

/**
 * A JSON client of the server with its own cookie jar, like a browser tab: it keeps the session
 * cookie and echoes the `XSRF-TOKEN` cookie in the `X-XSRF-TOKEN` header of state-changing calls.
 * Non-2xx answers throw an `ApiError`; use `raw` to look at them instead.
 */
export class ApiClient {
  constructor(readonly context: APIRequestContext) {}

  /** A signed-out client (of this class or a subclass) of the server at `baseURL`. */
  static async create<C extends ApiClient>(
    this: new (
      context: APIRequestContext,
    ) => C,
    baseURL: string,
  ): Promise<C> {
    return new this(await request.newContext({ baseURL }))
  }

  /**
   * Signs in through `POST /api/account/login`, then asks who is signed in: a session the
   * server does not know afterwards fails here, with the server's answer, instead of showing
   * up later as a page that sends its user to log in.
   */
  async signIn(userName: string, password: string): Promise<this> {
    await this.post('/api/account/login', { userName, password })
    await this.get('/api/account/profile')
    return this
  }

  private async xsrf(): Promise<string | undefined> {
    const { cookies } = await this.context.storageState()
    return cookies.find((c) => c.name === 'XSRF-TOKEN')?.value
  }

  /** Any call, answered as is (no throw on errors). */
  async raw(method: string, path: string, body?: unknown): Promise<APIResponse> {
    const headers: Record<string, string> = {}
    if (method !== 'GET' && method !== 'HEAD') {
      let token = await this.xsrf()
      if (!token) {
        // Any API call hands out the XSRF cookie.
        await this.context.get('/api/config')
        token = await this.xsrf()
      }
      if (token) headers['X-XSRF-TOKEN'] = token
    }
    const send = () =>
      this.context.fetch(path, { method, headers, ...(body === undefined ? {} : { data: body }) })
    try {
      return await send()
    } catch (err) {
      // A kept-alive connection the server closed as it went idle (long tests wait past the
      // server's keep-alive timeout) fails before the request is read: send it once more.
      if (!/ECONNRESET|socket hang up/.test(String(err))) throw err
      return send()
    }
  }

  /** A call that must succeed; returns the parsed JSON body (undefined when empty). */
  async call<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await this.raw(method, path, body)
    const text = await res.text()
    if (!res.ok()) throw new ApiError(method, path, res.status(), text)
    return (text ? JSON.parse(text) : undefined) as T
  }

  get = <T = unknown>(path: string) => this.call<T>('GET', path)
  post = <T = unknown>(path: string, body?: unknown) => this.call<T>('POST', path, body)
  put = <T = unknown>(path: string, body?: unknown) => this.call<T>('PUT', path, body)
  delete = <T = unknown>(path: string) => this.call<T>('DELETE', path)

  dispose = () => this.context.dispose()
}

/** The admin's client, with the settings helpers. */
export class AdminApi extends ApiClient {
  getConfig = () => this.get<AdminConfig>('/api/admin/config')

  /**
   * Changes some fields of the account policy (the server replaces the whole section, so this
   * reads it first and writes back the merge). Returns the policy as it was before.
   */
  async setAccountPolicy(change: Partial<AccountPolicy>): Promise<AccountPolicy> {
    const { accountPolicy } = await this.getConfig()
    await this.put('/api/admin/config', { accountPolicy: { ...accountPolicy, ...change } })
    return accountPolicy
  }

  /**
   * Moves the server's clock `ms` forward (the harness starts servers with PENNANT_TEST_CLOCK=1):
   * a container's turn, an opening or a freeze's reveal comes at once instead of after a wait.
   */
  advanceClock = (ms: number) =>
    this.post<{ now: number; offsetMs: number }>('/api/ext/test/clock', { advanceMs: ms })
}
