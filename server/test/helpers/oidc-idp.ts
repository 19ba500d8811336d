/// <reference path="./oidc-provider.d.ts" />
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import Provider from 'oidc-provider'

/** An account at the test provider: its claims (`sub` is the key it is stored under). */
export interface IdpAccount {
  email?: string
  email_verified?: boolean
  preferred_username?: string
  name?: string
}

export interface TestIdp {
  /** The issuer URL, e.g. `http://127.0.0.1:41234`. */
  issuer: string
  clientId: string
  clientSecret: string
  /** Accounts by subject; tests add and change them at will. */
  accounts: Map<string, IdpAccount>
  /** Seconds an authorization code lives (60 by default); a test shortens it to see one expire. */
  codeTtl: number
  close(): Promise<void>
}

const htmlText = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

function page(uid: string, message = ''): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>Test identity provider</title></head>
<body><main>
<h1>Test identity provider</h1>
${message ? `<p role="alert">${htmlText(message)}</p>` : ''}
<form method="post" action="/interaction/${htmlText(uid)}">
<label>Account <input name="login" autocomplete="username" autofocus></label>
<button type="submit" name="action" value="login">Continue</button>
<button type="submit" name="action" value="cancel">Cancel</button>
</form>
</main></body></html>`
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'))
}

/**
 * A real OpenID provider (oidc-provider) on a local port, with a one-field login page: type the
 * account's subject and continue (consent is granted with it), or cancel. `redirectUris` are the
 * callbacks the one registered client may use.
 */
export async function startTestIdp(opts: { redirectUris: string[]; port?: number }): Promise<TestIdp> {
  const accounts = new Map<string, IdpAccount>()
  const clientId = 'pennant'
  const clientSecret = 'a-test-client-secret-that-is-long-enough'
  const state = { codeTtl: 60 }
  let provider!: Provider

  const server: Server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const match = req.url?.match(/^\/interaction\/([\w-]+)$/)
    if (!match) return provider.callback()(req, res)
    try {
      const details = await provider.interactionDetails(req, res)
      if (req.method === 'GET') {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page(details.uid))
        return
      }
      const form = await readForm(req)
      if (form.get('action') === 'cancel') {
        await provider.interactionFinished(
          req,
          res,
          { error: 'access_denied', error_description: 'The user cancelled' },
          { mergeWithLastSubmission: false },
        )
        return
      }
      const accountId = form.get('login')?.trim() ?? ''
      if (!accounts.has(accountId)) {
        res
          .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
          .end(page(details.uid, 'No such account'))
        return
      }
      const grant = new provider.Grant({ accountId, clientId: details.params.client_id as string })
      grant.addOIDCScope(String(details.params.scope))
      const grantId = await grant.save()
      await provider.interactionFinished(
        req,
        res,
        { login: { accountId }, consent: { grantId } },
        { mergeWithLastSubmission: false },
      )
    } catch (err) {
      res.writeHead(400, { 'content-type': 'text/plain' }).end(String(err))
    }
  })
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', resolve))
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

  provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: opts.redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    async findAccount(_ctx: unknown, id: string) {
      const account = accounts.get(id)
      if (!account) return undefined
      return { accountId: id, claims: async () => ({ sub: id, ...account }) }
    },
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['preferred_username', 'name'],
    },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    cookies: { keys: ['pennant-test-idp-cookie-key'] },
    pkce: { required: () => true },
    ttl: { AuthorizationCode: () => state.codeTtl },
  })
  // Quiet: a test that checks a refusal should not print the provider's stack traces.
  provider.on('server_error', () => {})

  return {
    issuer,
    clientId,
    clientSecret,
    accounts,
    get codeTtl() {
      return state.codeTtl
    },
    set codeTtl(seconds: number) {
      state.codeTtl = seconds
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/**
 * A minimal browser for the provider's side: keeps the provider's cookies and follows its
 * redirects until one leaves for `stopAt` (Pennant's callback), which it returns.
 */
export class IdpBrowser {
  private readonly cookies = new Map<string, string>()

  private async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers)
    if (this.cookies.size) headers.set('cookie', [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '))
    const res = await fetch(url, { ...init, headers, redirect: 'manual' })
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';')
      const at = pair!.indexOf('=')
      const name = pair!.slice(0, at).trim()
      const value = pair!.slice(at + 1).trim()
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(line)) this.cookies.delete(name)
      else this.cookies.set(name, value)
    }
    return res
  }

  /** Follows redirects from `url` until one points at `stopAt`; returns the page or the exit. */
  private async follow(
    res: Response,
    from: string,
    stopAt: string,
  ): Promise<{ exit?: string; page?: Response }> {
    let current = res
    let at = from
    for (let hops = 0; hops < 10; hops++) {
      const location = current.headers.get('location')
      if (current.status < 300 || current.status >= 400 || !location) return { page: current }
      const next = new URL(location, at).toString()
      if (next.startsWith(stopAt)) return { exit: next }
      at = next
      current = await this.fetch(next)
    }
    throw new Error('too many redirects at the provider')
  }

  /**
   * Opens the authorization URL, signs in as `account` (or cancels) on the login page, and
   * returns the URL the provider sends the browser back to.
   */
  async signIn(authorizationUrl: string, account: string | null, stopAt: string): Promise<string> {
    const first = await this.follow(await this.fetch(authorizationUrl), authorizationUrl, stopAt)
    if (first.exit) return first.exit // already signed in and consented at the provider
    const html = await first.page!.text()
    const action = html.match(/action="([^"]+)"/)?.[1]
    if (!action) throw new Error(`no login form at the provider: ${html.slice(0, 300)}`)
    const formUrl = new URL(action, authorizationUrl).toString()
    const body = new URLSearchParams(
      account === null ? { action: 'cancel' } : { login: account, action: 'login' },
    )
    const posted = await this.fetch(formUrl, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    })
    const done = await this.follow(posted, formUrl, stopAt)
    if (!done.exit) throw new Error(`the provider did not send the browser back: ${await done.page!.text()}`)
    return done.exit
  }
}
