import { Button, Group, NumberInput, Stack, TextInput } from '@mantine/core'
import { IconKey } from '@tabler/icons-react'
import { type FormEvent, useState } from 'react'
import { EditModal } from '@/components/edit-modal'
import { useSubmit } from '@/hooks/use-submit'
import { useTranslation } from '@/i18n'
import { formatDate } from '@/utils/format-date'
import {
  EXPIRY_MAX_DAYS,
  expiryOf,
  NAME_MAX,
  type TokenForm,
  type TokenFormErrors,
  toCreate,
  validateTokenForm,
} from '../../token-form'
import { useTokenActions } from '../../tokens-api'
import '@mantine/core/styles/NumberInput.css'

const START: TokenForm = { name: '', expiresIn: 30 }

/** Name and lifetime of a new token; hands the created token (with its secret) to `onCreated`. */
export function CreateTokenModal({
  opened,
  onClose,
  onCreated,
}: {
  opened: boolean
  onClose: () => void
  onCreated: (token: string, name: string) => void
}) {
  const { t } = useTranslation()
  const { create } = useTokenActions()
  const [form, setForm] = useState<TokenForm>(START)
  const [errors, setErrors] = useState<TokenFormErrors>({})
  const { busy, run } = useSubmit()
  const expires = expiryOf(form.expiresIn, Date.now())

  const close = () => {
    setForm(START)
    setErrors({})
    onClose()
  }

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const found = validateTokenForm(form)
    setErrors(found)
    if (Object.keys(found).length) return
    // No success notice: the dialog that shows the new token once says it.
    await run(async () => {
      const created = await create(toCreate(form))
      close()
      onCreated(created.token, created.info.name)
    })
  }

  return (
    <EditModal opened={opened} onClose={close} title={t('admin.tokens.create_title')} size="md">
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <TextInput
            label={t('admin.tokens.field.name')}
            description={t('admin.tokens.field.name_hint')}
            required
            data-autofocus
            maxLength={NAME_MAX}
            value={form.name}
            onChange={(e) => {
              const name = e.currentTarget.value
              setForm((f) => ({ ...f, name }))
              setErrors((x) => ({ ...x, name: undefined }))
            }}
            error={errors.name && t(errors.name, { max: NAME_MAX })}
          />
          <NumberInput
            label={t('admin.tokens.field.expiry')}
            description={
              expires === null
                ? t('admin.tokens.field.expiry_never')
                : t('admin.tokens.field.expiry_on', { date: formatDate(expires, 'long') })
            }
            min={0}
            max={EXPIRY_MAX_DAYS}
            allowDecimal={false}
            allowNegative={false}
            clampBehavior="none"
            value={form.expiresIn}
            onChange={(expiresIn) => {
              setForm((f) => ({ ...f, expiresIn }))
              setErrors((x) => ({ ...x, expiresIn: undefined }))
            }}
            error={errors.expiresIn && t(errors.expiresIn, { max: EXPIRY_MAX_DAYS })}
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close}>
              {t('common.button.cancel')}
            </Button>
            <Button type="submit" loading={busy} leftSection={<IconKey size={16} aria-hidden />}>
              {t('admin.tokens.create')}
            </Button>
          </Group>
        </Stack>
      </form>
    </EditModal>
  )
}
