import { describe, expect, it } from 'vitest'
import {
  type AdminConfig,
  changedSections,
  humanMinutes,
  type SettingsForm,
  signUpOutcome,
  splitDomains,
  toForm,
  toUpdate,
  validateSettings,
} from './settings-form'

const config = (): AdminConfig => ({
  globalConfig: {
    title: 'Pennant',
    slogan: 'Hack for fun not for profit',
    description: null,
    footerInfo: null,
    customTheme: null,
    apiEncryption: false,
    logoHash: 'abc',
    faviconHash: 'def',
  },
  accountPolicy: {
    allowRegister: true,
    activeOnRegister: true,
    useCaptcha: false,
    emailConfirmationRequired: false,
    emailDomainList: 'example.org, uni.edu',
  },
  containerPolicy: {
    autoDestroyOnLimitReached: false,
    maxExerciseContainerCountPerUser: 1,
    defaultLifetime: 120,
    extensionDuration: 120,
    renewalWindow: 10,
    allowEgress: true,
  },
})

const edit = (change: (form: SettingsForm) => void): SettingsForm => {
  const form = toForm(config())
  change(form)
  return form
}

describe(splitDomains, () => {
  it('reads the stored comma-separated list as tidy entries', () => {
    expect(splitDomains(' example.org,,@uni.edu ,')).toEqual(['example.org', 'uni.edu'])
    expect(splitDomains('')).toEqual([])
  })
})

describe(toForm, () => {
  it('shows missing texts as empty fields and the domain list as entries', () => {
    const form = toForm(config())
    expect(form.globalConfig).toMatchObject({ description: '', footerInfo: '', customTheme: '' })
    expect(form.accountPolicy.emailDomains).toEqual(['example.org', 'uni.edu'])
  })
})

describe(validateSettings, () => {
  it('accepts the settings as the server gave them', () => {
    expect(validateSettings(toForm(config()))).toEqual({})
  })

  it('needs a title and keeps texts within the server limits', () => {
    const errors = validateSettings(
      edit((f) => {
        f.globalConfig.title = '   '
        f.globalConfig.slogan = 'x'.repeat(257)
        f.globalConfig.description = 'x'.repeat(1025)
        f.globalConfig.footerInfo = 'x'.repeat(4096)
      }),
    )
    expect(errors).toEqual({
      'globalConfig.title': { key: 'admin.settings.error.title_required' },
      'globalConfig.slogan': { key: 'admin.settings.error.too_long', values: { max: 256 } },
      'globalConfig.description': { key: 'admin.settings.error.too_long', values: { max: 1024 } },
    })
    expect(validateSettings(edit((f) => (f.globalConfig.title = 'x'.repeat(65))))).toEqual({
      'globalConfig.title': { key: 'admin.settings.error.too_long', values: { max: 64 } },
    })
  })

  it('takes a six-digit hex colour or nothing', () => {
    for (const ok of ['', '#00ffaa', '#ABCDEF'])
      expect(validateSettings(edit((f) => (f.globalConfig.customTheme = ok)))).toEqual({})
    for (const bad of ['#abc', 'teal', '#12345g'])
      expect(validateSettings(edit((f) => (f.globalConfig.customTheme = bad)))).toEqual({
        'globalConfig.customTheme': { key: 'admin.settings.error.color' },
      })
  })

  it('checks every container number against its range, empty fields included', () => {
    const errors = validateSettings(
      edit((f) => {
        f.containerPolicy.defaultLifetime = 0
        f.containerPolicy.extensionDuration = 7201
        f.containerPolicy.renewalWindow = ''
        f.containerPolicy.maxExerciseContainerCountPerUser = 1.5
      }),
    )
    expect(errors).toEqual({
      'containerPolicy.defaultLifetime': { key: 'admin.settings.error.range', values: { min: 1, max: 7200 } },
      'containerPolicy.extensionDuration': {
        key: 'admin.settings.error.range',
        values: { min: 1, max: 7200 },
      },
      'containerPolicy.renewalWindow': { key: 'admin.settings.error.range', values: { min: 1, max: 360 } },
      'containerPolicy.maxExerciseContainerCountPerUser': {
        key: 'admin.settings.error.range',
        values: { min: 0, max: 100 },
      },
    })
  })

  it('accepts the range ends', () => {
    const form = edit((f) => {
      f.containerPolicy.defaultLifetime = 7200
      f.containerPolicy.renewalWindow = 360
      f.containerPolicy.maxExerciseContainerCountPerUser = 0
    })
    expect(validateSettings(form)).toEqual({})
  })

  it('names the first entry that is not a domain', () => {
    const errors = validateSettings(edit((f) => (f.accountPolicy.emailDomains = ['ok.org', 'me@x.org'])))
    expect(errors).toEqual({
      'accountPolicy.emailDomains': { key: 'admin.settings.error.domain', values: { domain: 'me@x.org' } },
    })
    for (const bad of ['localhost', 'https://x.org', 'a b.org'])
      expect(validateSettings(edit((f) => (f.accountPolicy.emailDomains = [bad])))).toHaveProperty(
        'accountPolicy.emailDomains',
      )
  })

  it('keeps the stored domain list within 1024 characters', () => {
    const many = Array.from({ length: 80 }, (_, i) => `domain-${i}.example`)
    expect(validateSettings(edit((f) => (f.accountPolicy.emailDomains = many)))).toEqual({
      'accountPolicy.emailDomains': { key: 'admin.settings.error.too_long', values: { max: 1024 } },
    })
  })
})

describe(toUpdate, () => {
  it('sends nothing when nothing changed', () => {
    const saved = toForm(config())
    expect(changedSections(toForm(config()), saved)).toEqual([])
    expect(toUpdate(toForm(config()), saved)).toEqual({})
  })

  it('sends only the changed section, whole, so other sections are left alone', () => {
    const form = edit((f) => (f.containerPolicy.allowEgress = false))
    expect(toUpdate(form, toForm(config()))).toEqual({
      containerPolicy: {
        autoDestroyOnLimitReached: false,
        maxExerciseContainerCountPerUser: 1,
        defaultLifetime: 120,
        extensionDuration: 120,
        renewalWindow: 10,
        allowEgress: false,
      },
    })
  })

  it('trims texts, sends empty optional texts as null and never sends the logo', () => {
    const form = edit((f) => {
      f.globalConfig.title = '  Spring CTF '
      f.globalConfig.description = '   '
      f.globalConfig.footerInfo = 'Made with **care**\n'
      f.globalConfig.customTheme = '#AA00FF'
    })
    const body = toUpdate(form, toForm(config()))
    expect(body).toEqual({
      globalConfig: {
        title: 'Spring CTF',
        slogan: 'Hack for fun not for profit',
        description: null,
        footerInfo: 'Made with **care**',
        customTheme: '#aa00ff',
        apiEncryption: false,
      },
    })
    expect(body.globalConfig).not.toHaveProperty('logoHash')
  })

  it('sends an empty colour as null (the platform default)', () => {
    const saved = toForm({ ...config(), globalConfig: { ...config().globalConfig, customTheme: '#123456' } })
    const form = structuredClone(saved)
    form.globalConfig.customTheme = ''
    expect(toUpdate(form, saved).globalConfig?.customTheme).toBeNull()
  })

  it('stores the domains comma-separated, tidied and without repeats', () => {
    const form = edit((f) => (f.accountPolicy.emailDomains = ['@example.org', ' uni.edu', 'example.org']))
    expect(toUpdate(form, toForm(config())).accountPolicy).toEqual({
      allowRegister: true,
      emailConfirmationRequired: false,
      activeOnRegister: true,
      useCaptcha: false,
      emailDomainList: 'example.org,uni.edu',
    })
  })

  it('sends numbers typed into the container fields as numbers', () => {
    const form = edit((f) => (f.containerPolicy.renewalWindow = 30))
    expect(toUpdate(form, toForm(config())).containerPolicy?.renewalWindow).toBe(30)
    expect(changedSections(form, toForm(config()))).toEqual(['containerPolicy'])
  })
})

describe(signUpOutcome, () => {
  const policy = (allowRegister: boolean, activeOnRegister: boolean, emailConfirmationRequired: boolean) => ({
    ...toForm(config()).accountPolicy,
    allowRegister,
    activeOnRegister,
    emailConfirmationRequired,
  })

  it('follows the server: closed, then active at once, then mail, then an admin', () => {
    expect(signUpOutcome(policy(false, true, true))).toBe('closed')
    expect(signUpOutcome(policy(true, true, true))).toBe('immediate')
    expect(signUpOutcome(policy(true, false, true))).toBe('email')
    expect(signUpOutcome(policy(true, false, false))).toBe('admin')
  })
})

describe(humanMinutes, () => {
  it('reads minutes as days, hours and minutes, leaving out zero parts', () => {
    expect(humanMinutes(45)).toBe('45 min')
    expect(humanMinutes(120)).toBe('2 h')
    expect(humanMinutes(150)).toBe('2 h 30 min')
    expect(humanMinutes(7200)).toBe('5 d')
    expect(humanMinutes(1565)).toBe('1 d 2 h 5 min')
  })
})
