import * as client from 'openid-client'

/** What Pennant needs to know of one provider to talk to it. */
export interface OidcProviderRef {
  issuer: string
  clientId: string
  clientSecret: string
}

/** The checks a callback is verified against, kept between the start and the callback. */
export interface OidcChecks {
  state: string
  nonce: string
  codeVerifier: string
}

/** A finished authorization-code exchange: the ID token's claims with the UserInfo answer. */
export interface OidcResult {
  subject: string
  claims: Record<string, unknown>
}

/** Why talking to a provider failed, in the words the callback turns into a message. */
export class OidcFailure extends Error {
  constructor(
    readonly reason: 'unreachable' | 'state' | 'denied' | 'exchange',
    message: string,
  ) {
    super(message)
  }
}

/**
 * HTTPS issuers only, except on this machine (a provider for tests or development): tokens and
 * the client secret must not cross a network in the clear.
 */
export function issuerAllowed(issuer: string): boolean {
  let url: URL
  try {
    url = new URL(issuer)
  } catch {
    return false
  }
  if (url.username || url.password || url.search || url.hash) return false
  if (url.protocol === 'https:') return true
  return url.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname)
}

const DISCOVERY_TTL_MS = 10 * 60_000
const TIMEOUT_S = 10

/**
 * OpenID Connect relying party over openid-client (authorization code + PKCE + state + nonce).
 * Discovery documents are remembered for a few minutes per provider configuration.
 */
export function createOidcClient() {
  const configs = new Map<string, { at: number; config: Promise<client.Configuration> }>()

  function configuration(ref: OidcProviderRef): Promise<client.Configuration> {
    const key = JSON.stringify([ref.issuer, ref.clientId, ref.clientSecret])
    const hit = configs.get(key)
    if (hit && Date.now() - hit.at < DISCOVERY_TTL_MS) return hit.config
    const insecure = new URL(ref.issuer).protocol === 'http:'
    const config = client
      .discovery(new URL(ref.issuer), ref.clientId, ref.clientSecret, undefined, {
        timeout: TIMEOUT_S,
        execute: insecure ? [client.allowInsecureRequests] : [],
      })
      .then((config) => {
        // Providers that only take the secret in the Authorization header (the OIDC default).
        const methods = config.serverMetadata().token_endpoint_auth_methods_supported
        if (methods && !methods.includes('client_secret_post') && methods.includes('client_secret_basic')) {
          const basic = new client.Configuration(
            config.serverMetadata(),
            ref.clientId,
            ref.clientSecret,
            client.ClientSecretBasic(ref.clientSecret),
          )
          if (insecure) client.allowInsecureRequests(basic)
          return basic
        }
        return config
      })
    configs.set(key, { at: Date.now(), config })
    // A failed discovery is not remembered: the next attempt asks again.
    config.catch(() => configs.delete(key))
    return config
  }

  async function reach(ref: OidcProviderRef) {
    try {
      return await configuration(ref)
    } catch (err) {
      throw new OidcFailure('unreachable', `discovery at ${ref.issuer} failed: ${String(err)}`)
    }
  }

  return {
    /** Fresh random checks for one sign-in attempt. */
    newChecks(): OidcChecks {
      return {
        state: client.randomState(),
        nonce: client.randomNonce(),
        codeVerifier: client.randomPKCECodeVerifier(),
      }
    },

    /** The provider's authorization URL to send the browser to. */
    async authorizationUrl(ref: OidcProviderRef, redirectUri: string, checks: OidcChecks): Promise<URL> {
      const config = await reach(ref)
      return client.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope: 'openid email profile',
        state: checks.state,
        nonce: checks.nonce,
        code_challenge: await client.calculatePKCECodeChallenge(checks.codeVerifier),
        code_challenge_method: 'S256',
      })
    },

    /** Verifies the callback URL against the checks, redeems the code and reads the claims. */
    async finish(ref: OidcProviderRef, callbackUrl: URL, checks: OidcChecks): Promise<OidcResult> {
      const config = await reach(ref)
      const returned = callbackUrl.searchParams.get('state')
      if (returned !== checks.state) throw new OidcFailure('state', 'the state does not match')
      const error = callbackUrl.searchParams.get('error')
      if (error) throw new OidcFailure('denied', `the provider answered ${error}`)
      let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>
      try {
        tokens = await client.authorizationCodeGrant(config, callbackUrl, {
          expectedState: checks.state,
          expectedNonce: checks.nonce,
          pkceCodeVerifier: checks.codeVerifier,
          idTokenExpected: true,
        })
      } catch (err) {
        throw new OidcFailure('exchange', `the code exchange failed: ${String(err)}`)
      }
      const idClaims = tokens.claims()
      if (!idClaims) throw new OidcFailure('exchange', 'no ID token')
      let info: Record<string, unknown> = {}
      if (config.serverMetadata().userinfo_endpoint) {
        try {
          info = await client.fetchUserInfo(config, tokens.access_token, idClaims.sub)
        } catch (err) {
          throw new OidcFailure('exchange', `UserInfo failed: ${String(err)}`)
        }
      }
      return { subject: idClaims.sub, claims: { ...info, ...idClaims } }
    },

    /** Forgets remembered discovery documents (a provider was edited or deleted). */
    forget() {
      configs.clear()
    },
  }
}
export type OidcClient = ReturnType<typeof createOidcClient>
