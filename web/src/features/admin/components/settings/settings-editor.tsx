import { Alert, Button, Stack, Text } from '@mantine/core'
import { IconDeviceFloppy } from '@tabler/icons-react'
import { type FormEvent, useRef, useState } from 'react'
import classes from '@/components/sticky-bar.module.css'
import { afterSave } from '@/features/edit/after-save'
import { useSubmit } from '@/hooks/use-submit'
import { useUnsavedGuard } from '@/hooks/use-unsaved-guard'
import { useTranslation } from '@/i18n'
import { notify } from '@/utils/notify'
import { useSettingsActions } from '../../settings-api'
import {
  type AdminConfig,
  changedSections,
  type Section,
  type SettingsErrors,
  type SettingsForm,
  toForm,
  toUpdate,
  validateSettings,
} from '../../settings-form'
import { AccountSection } from './account-section'
import { ContainerSection } from './container-section'
import { PlatformSection } from './platform-section'
import type { SectionProps } from './section-props'
import '@mantine/core/styles/Switch.css'
import '@mantine/core/styles/NumberInput.css'
import '@mantine/core/styles/SimpleGrid.css'
import '@mantine/core/styles/Combobox.css'
import '@mantine/core/styles/Pill.css'
import '@mantine/core/styles/PillsInput.css'

/**
 * Every platform setting, checked before sending. "Save" sends the changed sections whole
 * (`PUT /api/admin/config`); then the form starts again from what the server stored. The logo
 * is not part of it: it changes at once through its own route.
 */
export function SettingsEditor({
  config,
  reload,
}: {
  config: AdminConfig
  /** Fetches the stored settings again (after a save). */
  reload: () => Promise<AdminConfig | undefined>
}) {
  const { t } = useTranslation()
  const actions = useSettingsActions()
  const formRef = useRef<HTMLFormElement>(null)
  const [saved, setSaved] = useState(() => toForm(config))
  const [form, setForm] = useState(saved)
  const [errors, setErrors] = useState<SettingsErrors>({})
  // The server's refusal stays above the save button after its toast has gone.
  const { busy, run, failure: serverError } = useSubmit()
  const dirty = changedSections(form, saved).length > 0
  useUnsavedGuard(dirty && !busy, {
    title: t('admin.settings.leave_title'),
    message: t('admin.settings.leave_body'),
    confirmLabel: t('admin.settings.leave'),
  })

  const bind = <S extends Section>(section: S): SectionProps<S> => ({
    value: form[section],
    set: (key, value) => {
      setForm((f) => ({ ...f, [section]: { ...f[section], [key]: value } }))
      const path = `${section}.${String(key)}` as keyof SettingsErrors
      if (errors[path]) setErrors((e) => ({ ...e, [path]: undefined }))
    },
    error: (key) => {
      const found = errors[`${section}.${String(key)}` as keyof SettingsErrors]
      return found ? t(found.key, found.values) : undefined
    },
  })

  const save = async (event: FormEvent) => {
    event.preventDefault()
    // One save at a time, so two cannot answer out of order (the loading button also blocks Enter).
    if (busy) return
    const found = validateSettings(form)
    setErrors(found)
    if (Object.keys(found).length) {
      notify.error(t('admin.settings.fix_errors'), t('admin.settings.save_failed'))
      // After React has shown the messages: the first field in error takes the focus.
      setTimeout(() => formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus())
      return
    }
    const body = toUpdate(form, saved)
    if (!Object.keys(body).length) {
      notify.info(t('admin.settings.no_changes'))
      return
    }
    const sent = form
    await run(
      async () => {
        await actions.save(body)
        const stored = await reload().catch(() => undefined)
        const next: SettingsForm = stored ? toForm(stored) : sent
        setSaved(next)
        setForm((current) => afterSave(current, sent, next))
      },
      { success: t('admin.settings.saved'), failure: t('admin.settings.save_failed') },
    )
  }

  return (
    <form
      ref={formRef}
      onSubmit={save}
      noValidate
      aria-label={t('admin.settings.form_label')}
      className={classes.form}
    >
      <Stack gap="md">
        <PlatformSection {...bind('globalConfig')} />
        <AccountSection {...bind('accountPolicy')} />
        <ContainerSection {...bind('containerPolicy')} />
        {serverError && (
          <Alert color="red" title={t('admin.settings.save_failed')} role="alert">
            {serverError}
          </Alert>
        )}
        <div className={classes.bar}>
          <Text size="sm" c="dimmed" aria-live="polite">
            {dirty ? t('admin.unsaved') : ''}
          </Text>
          <Button type="submit" loading={busy} leftSection={<IconDeviceFloppy size={16} aria-hidden />}>
            {t('common.button.save')}
          </Button>
        </div>
      </Stack>
    </form>
  )
}
