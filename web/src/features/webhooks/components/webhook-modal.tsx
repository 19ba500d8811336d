import { Button, Checkbox, Group, Radio, Select, Stack, Switch, TextInput } from '@mantine/core'
import { IconDeviceFloppy, IconPlus } from '@tabler/icons-react'
import { type FormEvent, useEffect, useState } from 'react'
import { EditModal } from '@/components/edit-modal'
import { useSubmit } from '@/hooks/use-submit'
import { useTranslation } from '@/i18n'
import { useGameChoices, useWebhookActions } from '../api'
import {
  EMPTY_FORM,
  EVENTS,
  FORMATS,
  formOf,
  toBody,
  URL_MAX,
  validateWebhookForm,
  type Webhook,
  type WebhookEvent,
  type WebhookForm,
  type WebhookFormat,
  type WebhookFormErrors,
} from '../webhook-form'
import '@mantine/core/styles/Checkbox.css'
import '@mantine/core/styles/Radio.css'
import '@mantine/core/styles/Combobox.css'
import '@mantine/core/styles/Switch.css'

/**
 * Adds an endpoint (`editing` null) or changes one. Hands a newly made secret (creation, or a
 * rotation) to `onSecret`, the one time it is shown.
 */
export function WebhookModal({
  opened,
  editing,
  onClose,
  onSecret,
}: {
  opened: boolean
  editing: Webhook | null
  onClose: () => void
  onSecret: (secret: string, url: string) => void
}) {
  const { t } = useTranslation()
  const actions = useWebhookActions()
  const games = useGameChoices()
  const [form, setForm] = useState<WebhookForm>(EMPTY_FORM)
  const [rotate, setRotate] = useState(false)
  const [errors, setErrors] = useState<WebhookFormErrors>({})
  const { busy, run } = useSubmit()

  useEffect(() => {
    if (!opened) return
    setForm(editing ? formOf(editing) : EMPTY_FORM)
    setRotate(false)
    setErrors({})
  }, [opened, editing])

  const set = <K extends keyof WebhookForm>(key: K, value: WebhookForm[K]) => {
    setForm((f) => ({ ...f, [key]: value }))
    setErrors((e) => ({ ...e, [key]: undefined }))
  }

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const found = validateWebhookForm(form)
    setErrors(found)
    if (Object.keys(found).length) return
    const body = toBody(form)
    let saved: Awaited<ReturnType<typeof actions.create>> | undefined
    const done = await run(
      async () => {
        saved = editing
          ? await actions.update(editing.id, { ...body, rotateSecret: rotate })
          : await actions.create(body)
      },
      { success: t(editing ? 'webhooks.saved' : 'webhooks.created') },
    )
    if (!done) return
    onClose()
    if (saved?.secret) onSecret(saved.secret, saved.webhook.url)
  }

  const gameOptions = [
    { value: '', label: t('webhooks.all_games') },
    ...(games.data?.data ?? []).map((g) => ({ value: String(g.id), label: g.title })),
  ]
  // A filtered game beyond the first 100 still shows by its title.
  if (editing?.gameId && !gameOptions.some((o) => o.value === String(editing.gameId)))
    gameOptions.push({ value: String(editing.gameId), label: editing.gameTitle ?? `#${editing.gameId}` })

  return (
    <EditModal
      opened={opened}
      onClose={onClose}
      title={t(editing ? 'webhooks.form.edit_title' : 'webhooks.form.create_title')}
      size="lg"
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <TextInput
            label={t('webhooks.form.url')}
            description={t('webhooks.form.url_hint')}
            required
            data-autofocus
            type="url"
            inputMode="url"
            maxLength={URL_MAX}
            value={form.url}
            onChange={(e) => set('url', e.currentTarget.value)}
            error={errors.url && t(errors.url, { max: URL_MAX })}
          />
          <Radio.Group
            label={t('webhooks.form.format')}
            description={t('webhooks.form.format_hint')}
            value={form.format}
            onChange={(v) => set('format', v as WebhookFormat)}
          >
            <Group gap="lg" mt={6}>
              {FORMATS.map((f) => (
                <Radio key={f} value={f} label={t(`webhooks.format.${f}`)} />
              ))}
            </Group>
          </Radio.Group>
          <Checkbox.Group
            label={t('webhooks.form.events')}
            required
            value={form.events}
            onChange={(v) => set('events', v as WebhookEvent[])}
            error={errors.events && t(errors.events)}
          >
            <Stack gap={8} mt={6}>
              {EVENTS.map((e) => (
                <Checkbox key={e} value={e} label={t(`webhooks.event.${e}`)} />
              ))}
            </Stack>
          </Checkbox.Group>
          <Select
            label={t('webhooks.form.game')}
            description={t('webhooks.form.game_hint')}
            data={gameOptions}
            value={form.gameId}
            onChange={(v) => set('gameId', v ?? '')}
            allowDeselect={false}
            searchable
            nothingFoundMessage={t('webhooks.form.game_none')}
          />
          <Switch
            label={t('webhooks.form.enabled')}
            description={t('webhooks.form.enabled_hint')}
            checked={form.enabled}
            onChange={(e) => set('enabled', e.currentTarget.checked)}
          />
          {editing && (
            <Checkbox
              label={t('webhooks.form.rotate')}
              description={t('webhooks.form.rotate_hint')}
              checked={rotate}
              onChange={(e) => setRotate(e.currentTarget.checked)}
            />
          )}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              {t('common.button.cancel')}
            </Button>
            <Button
              type="submit"
              loading={busy}
              leftSection={
                editing ? <IconDeviceFloppy size={16} aria-hidden /> : <IconPlus size={16} aria-hidden />
              }
            >
              {t(editing ? 'webhooks.form.save' : 'webhooks.form.create')}
            </Button>
          </Group>
        </Stack>
      </form>
    </EditModal>
  )
}
