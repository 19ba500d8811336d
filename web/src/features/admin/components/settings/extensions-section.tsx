import { Stack, Switch, Text } from '@mantine/core'
import { useState } from 'react'
import { DataState } from '@/components/data-state'
import { Section } from '@/components/section'
import { type FeatureName, useFeatureActions, useFeatures } from '@/features/extensions/api'
import { useTranslation } from '@/i18n'
import { notify } from '@/utils/notify'

/** In the order the admin reads them; each has `name` and `hint` strings in admin.settings.extensions. */
const FEATURES: FeatureName[] = [
  'freeze',
  'scheduledRelease',
  'bigScreen',
  'ctftime',
  'gameTransfer',
  'oidc',
  'webhooks',
]

/**
 * Pennant's own additions, one switch each. Outside the settings form: a switch takes effect
 * when flipped, so there is nothing to forget to save.
 */
export function ExtensionsSection() {
  const { t } = useTranslation()
  const { data, error, mutate } = useFeatures()
  const actions = useFeatureActions()
  const [busy, setBusy] = useState<FeatureName | null>(null)

  const flip = async (name: FeatureName, on: boolean) => {
    setBusy(name)
    try {
      await actions.set({ [name]: on })
      notify.success(
        t(on ? 'admin.settings.extensions.turned_on' : 'admin.settings.extensions.turned_off', {
          name: t(`admin.settings.extensions.name.${name}`),
        }),
      )
    } catch (err) {
      notify.error(err, t('admin.settings.save_failed'))
    } finally {
      setBusy(null)
    }
  }

  return (
    <Section title={t('admin.settings.extensions.title')}>
      <Text size="sm" c="dimmed">
        {t('admin.settings.extensions.hint')}
      </Text>
      <DataState loading={!data && !error} error={data ? undefined : error} onRetry={() => mutate()}>
        <Stack gap="sm">
          {FEATURES.map((name) => (
            <Switch
              key={name}
              label={t(`admin.settings.extensions.name.${name}`)}
              description={t(`admin.settings.extensions.hint_of.${name}`)}
              checked={data?.[name] ?? false}
              disabled={busy !== null}
              onChange={(e) => void flip(name, e.currentTarget.checked)}
            />
          ))}
        </Stack>
      </DataState>
    </Section>
  )
}
