import type { Body, Ok } from '@/api/types'
import { isHexColor } from '@/theme/colors'

/** The platform settings as `GET /api/admin/config` gives them. */
export type AdminConfig = Ok<'/api/admin/config'>
/** What `PUT /api/admin/config` takes: each section given replaces the stored one. */
export type ConfigUpdate = Body<'/api/admin/config', 'put'>

/** A number field as typed: Mantine's NumberInput hands back '' while the field is empty. */
type NumberField = number | string

/** The settings screen's fields, grouped by the server's sections. */
export interface SettingsForm {
  globalConfig: {
    title: string
    slogan: string
    description: string
    /** `#rrggbb`, or '' for the platform default. */
    customTheme: string
    footerInfo: string
    apiEncryption: boolean
  }
  accountPolicy: {
    allowRegister: boolean
    activeOnRegister: boolean
    emailConfirmationRequired: boolean
    useCaptcha: boolean
    /** One domain per entry (the server stores them comma-separated). */
    emailDomains: string[]
  }
  containerPolicy: {
    defaultLifetime: NumberField
    extensionDuration: NumberField
    renewalWindow: NumberField
    autoDestroyOnLimitReached: boolean
    maxExerciseContainerCountPerUser: NumberField
    allowEgress: boolean
  }
}

export type Section = keyof SettingsForm
export const SECTIONS: readonly Section[] = ['globalConfig', 'accountPolicy', 'containerPolicy']

/** Limits of the server's settings schema (server/src/modules/settings/settings.schemas.ts). */
export const LIMITS = {
  title: 64,
  slogan: 256,
  description: 1024,
  footerInfo: 4096,
  emailDomainList: 1024,
  defaultLifetime: { min: 1, max: 7200 },
  extensionDuration: { min: 1, max: 7200 },
  renewalWindow: { min: 1, max: 360 },
  maxExerciseContainerCountPerUser: { min: 0, max: 100 },
} as const

/** A domain as an allow-list entry: no scheme, no `@`, no spaces, at least one dot. */
const DOMAIN = /^[^\s@,/:]+\.[^\s@,/:]+$/

/** An entry as typed, tidied: spaces and a leading `@` dropped ("@Example.org " → "Example.org"). */
export function cleanDomain(entry: string): string {
  return entry.trim().replace(/^@+/, '')
}

/** The comma-separated list stored by the server, as entries; empty pieces dropped. */
export function splitDomains(list: string): string[] {
  return list.split(',').map(cleanDomain).filter(Boolean)
}

export function toForm(config: AdminConfig): SettingsForm {
  const { globalConfig: g, accountPolicy: a, containerPolicy: c } = config
  return {
    globalConfig: {
      title: g.title,
      slogan: g.slogan,
      description: g.description ?? '',
      customTheme: g.customTheme ?? '',
      footerInfo: g.footerInfo ?? '',
      apiEncryption: g.apiEncryption,
    },
    accountPolicy: {
      allowRegister: a.allowRegister,
      activeOnRegister: a.activeOnRegister,
      emailConfirmationRequired: a.emailConfirmationRequired,
      useCaptcha: a.useCaptcha,
      emailDomains: splitDomains(a.emailDomainList),
    },
    containerPolicy: {
      defaultLifetime: c.defaultLifetime,
      extensionDuration: c.extensionDuration,
      renewalWindow: c.renewalWindow,
      autoDestroyOnLimitReached: c.autoDestroyOnLimitReached,
      maxExerciseContainerCountPerUser: c.maxExerciseContainerCountPerUser,
      allowEgress: c.allowEgress,
    },
  }
}

/** A field's address for errors: `globalConfig.title`, `containerPolicy.renewalWindow`, … */
export type FieldPath = {
  [S in Section]: `${S}.${Extract<keyof SettingsForm[S], string>}`
}[Section]

/** An error as a translation key with its values (e.g. the allowed range). */
export interface FieldError {
  key: string
  values?: Record<string, string | number>
}
export type SettingsErrors = Partial<Record<FieldPath, FieldError>>

const joinDomains = (domains: string[]) => [...new Set(domains.map(cleanDomain).filter(Boolean))].join(',')

function tooLong(text: string, max: number): FieldError | undefined {
  return text.length > max ? { key: 'admin.settings.error.too_long', values: { max } } : undefined
}

function outOfRange(value: NumberField, { min, max }: { min: number; max: number }): FieldError | undefined {
  const ok = typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max
  return ok ? undefined : { key: 'admin.settings.error.range', values: { min, max } }
}

/** What is wrong with the form, per field; empty when it can be sent. */
export function validateSettings(form: SettingsForm): SettingsErrors {
  const g = form.globalConfig
  const a = form.accountPolicy
  const c = form.containerPolicy
  const found: SettingsErrors = {
    'globalConfig.title': g.title.trim()
      ? tooLong(g.title.trim(), LIMITS.title)
      : { key: 'admin.settings.error.title_required' },
    'globalConfig.slogan': tooLong(g.slogan.trim(), LIMITS.slogan),
    'globalConfig.description': tooLong(g.description.trim(), LIMITS.description),
    'globalConfig.footerInfo': tooLong(g.footerInfo.trim(), LIMITS.footerInfo),
    'globalConfig.customTheme':
      g.customTheme.trim() === '' || isHexColor(g.customTheme.trim())
        ? undefined
        : { key: 'admin.settings.error.color' },
    'containerPolicy.defaultLifetime': outOfRange(c.defaultLifetime, LIMITS.defaultLifetime),
    'containerPolicy.extensionDuration': outOfRange(c.extensionDuration, LIMITS.extensionDuration),
    'containerPolicy.renewalWindow': outOfRange(c.renewalWindow, LIMITS.renewalWindow),
    'containerPolicy.maxExerciseContainerCountPerUser': outOfRange(
      c.maxExerciseContainerCountPerUser,
      LIMITS.maxExerciseContainerCountPerUser,
    ),
  }
  const bad = a.emailDomains.map(cleanDomain).find((d) => d && !DOMAIN.test(d))
  if (bad)
    found['accountPolicy.emailDomains'] = { key: 'admin.settings.error.domain', values: { domain: bad } }
  else found['accountPolicy.emailDomains'] = tooLong(joinDomains(a.emailDomains), LIMITS.emailDomainList)
  for (const key of Object.keys(found) as FieldPath[]) if (!found[key]) delete found[key]
  return found
}

/** The request body of one section of a valid form, trimmed, with empty optional texts as null. */
function sectionBody<S extends Section>(form: SettingsForm, section: S): NonNullable<ConfigUpdate[S]> {
  if (section === 'globalConfig') {
    const g = form.globalConfig
    return {
      title: g.title.trim(),
      slogan: g.slogan.trim(),
      description: g.description.trim() || null,
      footerInfo: g.footerInfo.trim() || null,
      customTheme: g.customTheme.trim().toLowerCase() || null,
      apiEncryption: g.apiEncryption,
    } as NonNullable<ConfigUpdate[S]>
  }
  if (section === 'accountPolicy') {
    const { emailDomains, ...switches } = form.accountPolicy
    return { ...switches, emailDomainList: joinDomains(emailDomains) } as NonNullable<ConfigUpdate[S]>
  }
  const c = form.containerPolicy
  return {
    ...c,
    defaultLifetime: Number(c.defaultLifetime),
    extensionDuration: Number(c.extensionDuration),
    renewalWindow: Number(c.renewalWindow),
    maxExerciseContainerCountPerUser: Number(c.maxExerciseContainerCountPerUser),
  } as NonNullable<ConfigUpdate[S]>
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)

/** The sections whose fields differ from the last saved state. */
export function changedSections(form: SettingsForm, saved: SettingsForm): Section[] {
  return SECTIONS.filter((s) => !same(form[s], saved[s]))
}

/**
 * The body of `PUT /api/admin/config` for a valid form: only the changed sections, each whole
 * (the server replaces a section it is given, so a section sent must carry every field, and
 * one left out is left alone — another admin's change to it survives). Empty when nothing changed.
 */
export function toUpdate(form: SettingsForm, saved: SettingsForm): ConfigUpdate {
  const body: ConfigUpdate = {}
  for (const section of changedSections(form, saved))
    (body as Record<Section, unknown>)[section] = sectionBody(form, section)
  return body
}

/**
 * What happens to someone who signs up under this policy (as the server's register does): the
 * page refuses, they are in at once, they confirm their e-mail first, or an admin activates them.
 */
export type SignUpOutcome = 'closed' | 'immediate' | 'email' | 'admin'

export function signUpOutcome(policy: SettingsForm['accountPolicy']): SignUpOutcome {
  if (!policy.allowRegister) return 'closed'
  if (policy.activeOnRegister) return 'immediate'
  return policy.emailConfirmationRequired ? 'email' : 'admin'
}

/** A number of minutes in days, hours and minutes ("1 d 2 h 5 min"), to read a lifetime at a glance. */
export function humanMinutes(minutes: number): string {
  const parts: string[] = []
  const d = Math.floor(minutes / 1440)
  const h = Math.floor((minutes % 1440) / 60)
  const m = minutes % 60
  if (d) parts.push(`${d} d`)
  if (h) parts.push(`${h} h`)
  if (m || !parts.length) parts.push(`${m} min`)
  return parts.join(' ')
}
