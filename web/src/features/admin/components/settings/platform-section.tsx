import { Switch, Textarea, TextInput } from '@mantine/core'
import { MarkdownField } from '@/components/markdown-field'
import { Section } from '@/components/section'
import { useTranslation } from '@/i18n'
import { LIMITS } from '../../settings-form'
import { LogoField } from './logo-field'
import type { SectionProps } from './section-props'
import { ThemeColorField } from './theme-color-field'

/** Name, slogan, description, logo, colour, footer and API encryption. */
export function PlatformSection({ value, set, error }: SectionProps<'globalConfig'>) {
  const { t } = useTranslation()
  return (
    <Section title={t('admin.settings.section.platform')}>
      <TextInput
        label={t('admin.settings.field.title')}
        description={t('admin.settings.field.title_hint', { max: LIMITS.title })}
        required
        value={value.title}
        onChange={(e) => set('title', e.currentTarget.value)}
        error={error('title')}
      />
      <TextInput
        label={t('admin.settings.field.slogan')}
        description={t('admin.settings.field.slogan_hint')}
        value={value.slogan}
        onChange={(e) => set('slogan', e.currentTarget.value)}
        error={error('slogan')}
      />
      <Textarea
        label={t('admin.settings.field.description')}
        description={t('admin.settings.field.description_hint', { max: LIMITS.description })}
        autosize
        minRows={2}
        maxRows={6}
        value={value.description}
        onChange={(e) => set('description', e.currentTarget.value)}
        error={error('description')}
      />
      <LogoField />
      <ThemeColorField
        value={value.customTheme}
        onChange={(v) => set('customTheme', v)}
        error={error('customTheme')}
      />
      <MarkdownField
        label={t('admin.settings.field.footer')}
        description={t('admin.settings.field.footer_hint', { max: LIMITS.footerInfo })}
        value={value.footerInfo}
        onChange={(v) => set('footerInfo', v)}
        error={error('footerInfo')}
        minRows={3}
      />
      <Switch
        label={t('admin.settings.field.api_encryption')}
        description={t('admin.settings.field.api_encryption_hint')}
        checked={value.apiEncryption}
        onChange={(e) => set('apiEncryption', e.currentTarget.checked)}
      />
    </Section>
  )
}
