import { NumberInput, SimpleGrid, Switch } from '@mantine/core'
import { Section } from '@/components/section'
import { useTranslation } from '@/i18n'
import { humanMinutes, LIMITS, type SettingsForm } from '../../settings-form'
import type { SectionProps } from './section-props'

type Minutes = 'defaultLifetime' | 'extensionDuration' | 'renewalWindow'
/** `strings`: the field's key in admin.settings.field (its label and `_hint`). */
const MINUTE_FIELDS: { key: Minutes; strings: string }[] = [
  { key: 'defaultLifetime', strings: 'lifetime' },
  { key: 'extensionDuration', strings: 'extension' },
  { key: 'renewalWindow', strings: 'renewal_window' },
]

/** Lifetimes, the renewal window, what a full team's next start does, and internet access. */
export function ContainerSection({ value, set, error }: SectionProps<'containerPolicy'>) {
  const { t } = useTranslation()
  /** "= 2 h" under a field of an hour or more, to read it without counting. */
  const reading = (v: SettingsForm['containerPolicy'][Minutes]) =>
    typeof v === 'number' && Number.isInteger(v) && v >= 60
      ? ` ${t('admin.settings.field.minutes_reading', { value: humanMinutes(v) })}`
      : ''

  return (
    <Section title={t('admin.settings.section.container')}>
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        {MINUTE_FIELDS.map(({ key, strings }) => (
          <NumberInput
            key={key}
            label={t(`admin.settings.field.${strings}`)}
            description={t(`admin.settings.field.${strings}_hint`, LIMITS[key]) + reading(value[key])}
            min={LIMITS[key].min}
            max={LIMITS[key].max}
            allowDecimal={false}
            allowNegative={false}
            clampBehavior="none"
            required
            value={value[key]}
            onChange={(v) => set(key, v)}
            error={error(key)}
            // Under the box, so the three boxes line up whatever their hints' length.
            inputWrapperOrder={['label', 'input', 'description', 'error']}
          />
        ))}
      </SimpleGrid>
      <Switch
        label={t('admin.settings.field.auto_destroy')}
        description={t('admin.settings.field.auto_destroy_hint')}
        checked={value.autoDestroyOnLimitReached}
        onChange={(e) => set('autoDestroyOnLimitReached', e.currentTarget.checked)}
      />
      <Switch
        label={t('admin.settings.field.allow_egress')}
        description={t('admin.settings.field.allow_egress_hint')}
        checked={value.allowEgress}
        onChange={(e) => set('allowEgress', e.currentTarget.checked)}
      />
      <NumberInput
        label={t('admin.settings.field.exercise_limit')}
        description={t('admin.settings.field.exercise_limit_hint', LIMITS.maxExerciseContainerCountPerUser)}
        min={LIMITS.maxExerciseContainerCountPerUser.min}
        max={LIMITS.maxExerciseContainerCountPerUser.max}
        allowDecimal={false}
        allowNegative={false}
        clampBehavior="none"
        value={value.maxExerciseContainerCountPerUser}
        onChange={(v) => set('maxExerciseContainerCountPerUser', v)}
        error={error('maxExerciseContainerCountPerUser')}
        styles={{ wrapper: { maxWidth: 240 } }}
      />
    </Section>
  )
}
