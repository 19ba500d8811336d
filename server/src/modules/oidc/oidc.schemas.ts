import { Type } from 'typebox'
import { Nullable, RequiredString } from '../../http/schema.ts'

/** A claim name as providers spell them (`preferred_username`, `upn`, `urn:…:email`). */
const Claim = Type.String({ pattern: '^[A-Za-z0-9_.:/-]+$', minLength: 1, maxLength: 64 })

/** What an admin sees of a provider: never the whole client secret. */
export const IdentityProviderModel = Type.Object({
  id: Type.Integer(),
  slug: Type.String(),
  displayName: Type.String(),
  issuer: Type.String(),
  clientId: Type.String(),
  /** The secret's last characters (or only dots when it is short), to tell which one is set. */
  clientSecretHint: Type.String(),
  userNameClaim: Type.String(),
  emailClaim: Type.String(),
  allowSignUp: Type.Boolean(),
  enabled: Type.Boolean(),
  /** How many accounts are linked to it. */
  linkedUsers: Type.Integer(),
  /** The address to register at the provider as this client's redirect URI. */
  redirectUri: Type.String(),
})

const fields = {
  slug: Type.String({
    pattern: '^[a-z0-9](?:[a-z0-9-]{0,30}[a-z0-9])?$',
    maxLength: 32,
    description: 'Lowercase letters, digits and inner hyphens; used in the redirect URI',
  }),
  displayName: RequiredString({ maxLength: 64 }),
  issuer: Type.String({
    minLength: 8,
    maxLength: 512,
    description: 'HTTPS issuer URL (http only on localhost)',
  }),
  clientId: RequiredString({ maxLength: 256 }),
  userNameClaim: Claim,
  emailClaim: Claim,
  allowSignUp: Type.Boolean(),
  enabled: Type.Boolean(),
}

export const IdentityProviderCreateModel = Type.Object(
  {
    ...fields,
    clientSecret: RequiredString({ maxLength: 1024 }),
    userNameClaim: Type.Optional(Claim),
    emailClaim: Type.Optional(Claim),
    allowSignUp: Type.Optional(Type.Boolean()),
    enabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
)

/** Fields left out (or a null secret) keep their value. */
export const IdentityProviderUpdateModel = Type.Object(
  {
    slug: Type.Optional(fields.slug),
    displayName: Type.Optional(fields.displayName),
    issuer: Type.Optional(fields.issuer),
    clientId: Type.Optional(fields.clientId),
    clientSecret: Type.Optional(Nullable(Type.String({ maxLength: 1024 }))),
    userNameClaim: Type.Optional(Claim),
    emailClaim: Type.Optional(Claim),
    allowSignUp: Type.Optional(Type.Boolean()),
    enabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
)

/** What the login page shows of an enabled provider. */
export const PublicProviderModel = Type.Object({ slug: Type.String(), displayName: Type.String() })

/** The caller's sign-in methods, for the profile page. */
export const OwnIdentitiesModel = Type.Object({
  /** Whether the account has a password (otherwise it signs in through its identities only). */
  hasPassword: Type.Boolean(),
  providers: Type.Array(
    Type.Object({
      slug: Type.String(),
      displayName: Type.String(),
      /** False for a provider an admin has since disabled (it can still be unlinked). */
      enabled: Type.Boolean(),
      linkedAt: Nullable(Type.Integer()),
    }),
  ),
})

export const LinkStartModel = Type.Object({ url: Type.String({ description: 'Where to send the browser' }) })
