import { type Static, Type } from 'typebox'
import { Enum, Nullable } from '../../http/schema.ts'

export const AccountPolicy = Type.Object({
  /** Anyone may create an account. */
  allowRegister: Type.Boolean({ default: true }),
  /** New accounts are usable at once (no confirmation). */
  activeOnRegister: Type.Boolean({ default: true }),
  useCaptcha: Type.Boolean({ default: false }),
  /** New accounts confirm their e-mail; also enables self-service reset and e-mail change. */
  emailConfirmationRequired: Type.Boolean({ default: false }),
  /** Comma-separated allowed e-mail domains; empty means any. */
  emailDomainList: Type.String({ default: '', maxLength: 1024 }),
})
export type AccountPolicy = Static<typeof AccountPolicy>

export const GlobalConfig = Type.Object({
  title: Type.String({ default: 'Pennant', maxLength: 64 }),
  slogan: Type.String({ default: 'Hack for fun not for profit', maxLength: 256 }),
  description: Type.Optional(Nullable(Type.String({ maxLength: 1024 }))),
  footerInfo: Type.Optional(Nullable(Type.String({ maxLength: 4096 }))),
  /** `#rrggbb`, or empty / null for the platform default. */
  customTheme: Type.Optional(Nullable(Type.String({ pattern: '^(#[0-9a-fA-F]{6})?$' }))),
  apiEncryption: Type.Boolean({ default: false }),
  /** Set only by the logo upload; ignored on save. */
  logoHash: Type.Optional(Nullable(Type.String())),
  faviconHash: Type.Optional(Nullable(Type.String())),
})
export type GlobalConfig = Static<typeof GlobalConfig>

export const ContainerPolicy = Type.Object({
  autoDestroyOnLimitReached: Type.Boolean({ default: false }),
  maxExerciseContainerCountPerUser: Type.Integer({ default: 1, minimum: 0, maximum: 100 }),
  /** Minutes a new container lives. */
  defaultLifetime: Type.Integer({ default: 120, minimum: 1, maximum: 7200 }),
  /** Minutes one extension adds. */
  extensionDuration: Type.Integer({ default: 120, minimum: 1, maximum: 7200 }),
  /** Minutes before expiry when extending becomes possible. */
  renewalWindow: Type.Integer({ default: 10, minimum: 1, maximum: 360 }),
  /** Pennant addition: challenge containers may reach the internet (off: a network without egress). */
  allowEgress: Type.Boolean({ default: true }),
})
export type ContainerPolicy = Static<typeof ContainerPolicy>

/**
 * Pennant's own additions (not in GZCTF): each is off until an admin turns it on, so a platform
 * that upgrades behaves exactly as before.
 */
export const Extensions = Type.Object({
  /** Scoreboard freeze before the end (a game's `freezeAt`), revealed by an admin. */
  freeze: Type.Boolean({ default: false }),
  /** Challenges that open and close by themselves (`openAt`, `closeAt`). */
  scheduledRelease: Type.Boolean({ default: false }),
  /** The projector view of a scoreboard. */
  bigScreen: Type.Boolean({ default: false }),
  /** Standings in the format CTFtime imports. */
  ctftime: Type.Boolean({ default: false }),
  /** Exporting a game as one archive and importing it as a new game. */
  gameTransfer: Type.Boolean({ default: false }),
  /** Signing in with an OpenID Connect provider. */
  oidc: Type.Boolean({ default: false }),
  /** Signed event deliveries to organisers' endpoints (Discord, Slack, JSON). */
  webhooks: Type.Boolean({ default: false }),
})
export type Extensions = Static<typeof Extensions>
export type ExtensionName = keyof Extensions

/** Each section given replaces the stored one; fields left out take their defaults. */
export const ConfigEditModel = Type.Object({
  accountPolicy: Type.Optional(Nullable(Type.Partial(AccountPolicy))),
  globalConfig: Type.Optional(Nullable(Type.Partial(GlobalConfig))),
  containerPolicy: Type.Optional(Nullable(Type.Partial(ContainerPolicy))),
})

export const PortMappingType = Enum('ContainerPortMappingType', { Default: 0, PlatformProxy: 1 })

export const ClientConfig = Type.Object({
  title: Type.String(),
  slogan: Type.String(),
  footerInfo: Nullable(Type.String()),
  customTheme: Nullable(Type.String()),
  apiPublicKey: Nullable(Type.String()),
  logoUrl: Nullable(Type.String()),
  portMapping: PortMappingType,
  defaultLifetime: Type.Integer(),
  extensionDuration: Type.Integer(),
  renewalWindow: Type.Integer(),
})
export type ClientConfig = Static<typeof ClientConfig>

export const defaults = {
  accountPolicy: {
    allowRegister: true,
    activeOnRegister: true,
    useCaptcha: false,
    emailConfirmationRequired: false,
    emailDomainList: '',
  } satisfies AccountPolicy,
  globalConfig: {
    title: 'Pennant',
    slogan: 'Hack for fun not for profit',
    description: null,
    footerInfo: null,
    customTheme: null,
    apiEncryption: false,
    logoHash: null,
    faviconHash: null,
  } satisfies GlobalConfig,
  containerPolicy: {
    autoDestroyOnLimitReached: false,
    maxExerciseContainerCountPerUser: 1,
    defaultLifetime: 120,
    extensionDuration: 120,
    renewalWindow: 10,
    allowEgress: true,
  } satisfies ContainerPolicy,
  extensions: {
    freeze: false,
    scheduledRelease: false,
    bigScreen: false,
    ctftime: false,
    gameTransfer: false,
    oidc: false,
    webhooks: false,
  } satisfies Extensions,
}
