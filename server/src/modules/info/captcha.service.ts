import type { Config } from '../../config/index.ts'
import { checkPow, newPowChallenge, parsePowAnswer } from '../../engine/pow.ts'
import { fail } from '../../http/errors.ts'
import type { Cache } from '../../infra/cache/index.ts'
import type { SettingsService } from '../settings/settings.service.ts'

const POW_TTL_MS = 5 * 60_000
const key = (id: string) => `pow:${id}`

/** Captcha (game-engine §9): which provider is active, HashPow challenges, and verifying answers. */
export function createCaptchaService(deps: {
  config: Config['captcha']
  cache: Cache
  settings: Pick<SettingsService, 'get'>
  /** How long an issued challenge stays answerable. */
  ttlMs?: number
}) {
  const { config, cache, settings } = deps
  const ttlMs = deps.ttlMs ?? POW_TTL_MS
  const active = () => (settings.get().accountPolicy.useCaptcha ? config.provider : 'None')

  async function verifyTurnstile(token: string, ip: string): Promise<boolean> {
    if (!config.turnstileSecretKey) return true
    if (!token) return false
    try {
      const res = await fetch(config.turnstileVerifyUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          secret: config.turnstileSecretKey,
          response: token,
          remoteip: ip,
          idempotency_key: '',
        }),
        signal: AbortSignal.timeout(5000),
      })
      if (!res.ok) return false
      const body = (await res.json()) as { success?: unknown }
      return body.success === true
    } catch {
      return false
    }
  }

  return {
    info: () => ({
      type: active(),
      siteKey: active() === 'CloudflareTurnstile' ? config.turnstileSiteKey : '',
    }),

    async issuePow(): Promise<{ id: string; challenge: string; difficulty: number }> {
      if (config.provider !== 'HashPow') throw fail('Captcha_NotEnabled')
      const { id, challenge } = newPowChallenge()
      await cache.set(key(id), challenge, ttlMs)
      return { id, challenge, difficulty: config.powDifficulty }
    },

    /** True when the answer passes the active provider. A HashPow answer passes only once. */
    async verify(answer: string, ip: string): Promise<boolean> {
      const provider = active()
      if (provider === 'None') return true
      if (provider === 'CloudflareTurnstile') return verifyTurnstile(answer, ip)
      const parsed = parsePowAnswer(answer)
      if (!parsed) return false
      const challenge = await cache.get(key(parsed.id))
      if (!challenge || !checkPow(challenge, parsed.answer, config.powDifficulty)) return false
      // Whoever removes the challenge first wins; a replayed answer finds it gone.
      return cache.take(key(parsed.id))
    },
  }
}
export type CaptchaService = ReturnType<typeof createCaptchaService>
