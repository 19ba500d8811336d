import { Group, Switch, TagsInput, Text } from '@mantine/core'
import { IconInfoCircle } from '@tabler/icons-react'
import { Section } from '@/components/section'
import { useTranslation } from '@/i18n'
import { cleanDomain, signUpOutcome } from '../../settings-form'
import type { SectionProps } from './section-props'

/** Who may sign up, how a new account becomes usable, the captcha and the e-mail domains. */
export function AccountSection({ value, set, error }: SectionProps<'accountPolicy'>) {
  const { t } = useTranslation()
  const outcome = signUpOutcome(value)
  return (
    <Section title={t('admin.settings.section.account')}>
      <Switch
        label={t('admin.settings.field.allow_register')}
        description={t('admin.settings.field.allow_register_hint')}
        checked={value.allowRegister}
        onChange={(e) => set('allowRegister', e.currentTarget.checked)}
      />
      <Switch
        label={t('admin.settings.field.active_on_register')}
        description={t('admin.settings.field.active_on_register_hint')}
        checked={value.activeOnRegister}
        onChange={(e) => set('activeOnRegister', e.currentTarget.checked)}
      />
      <Switch
        label={t('admin.settings.field.email_confirmation')}
        description={t('admin.settings.field.email_confirmation_hint')}
        checked={value.emailConfirmationRequired}
        onChange={(e) => set('emailConfirmationRequired', e.currentTarget.checked)}
      />
      {/* What the three switches add up to; read out when it changes. */}
      <Group
        gap="xs"
        wrap="nowrap"
        role="status"
        px="sm"
        py={8}
        style={{ borderRadius: 'var(--mantine-radius-sm)', background: 'var(--mantine-color-blue-light)' }}
      >
        <IconInfoCircle
          size={18}
          color="var(--mantine-color-blue-light-color)"
          aria-hidden
          style={{ flexShrink: 0 }}
        />
        <Text size="sm">{t(`admin.settings.sign_up.${outcome}`)}</Text>
      </Group>
      <Switch
        label={t('admin.settings.field.captcha')}
        description={t('admin.settings.field.captcha_hint')}
        checked={value.useCaptcha}
        onChange={(e) => set('useCaptcha', e.currentTarget.checked)}
      />
      <TagsInput
        label={t('admin.settings.field.email_domains')}
        description={t('admin.settings.field.email_domains_hint')}
        placeholder={value.emailDomains.length ? undefined : t('admin.settings.field.email_domains_any')}
        value={value.emailDomains}
        onChange={(domains) => set('emailDomains', domains.map(cleanDomain).filter(Boolean))}
        error={error('emailDomains')}
        splitChars={[',', ' ']}
        clearable
        acceptValueOnBlur
      />
    </Section>
  )
}
