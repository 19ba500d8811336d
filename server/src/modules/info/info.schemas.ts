import { Type } from 'typebox'
import { Enum } from '../../http/schema.ts'

export const CaptchaProvider = Enum('CaptchaProvider', { None: 0, HashPow: 1, CloudflareTurnstile: 2 })

export const ClientCaptchaInfoModel = Type.Object({
  type: CaptchaProvider,
  /** Turnstile site key; empty for other providers. */
  siteKey: Type.String(),
})

export const HashPowChallenge = Type.Object({
  /** 12 lowercase hex characters. */
  id: Type.String(),
  /** 16 lowercase hex characters (8 bytes). */
  challenge: Type.String(),
  /** Leading zero bits required of SHA-256(challenge ‖ answer). */
  difficulty: Type.Integer(),
})
