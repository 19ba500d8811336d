import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core'
import { type FormEvent, useState } from 'react'
import { useTranslation } from '@/i18n'
import { notify } from '@/utils/notify'
import { useProfileActions } from '../actions'
import { checkEmail, type FieldProblem } from '../validation'
import '@mantine/core/styles/Overlay.css'
import '@mantine/core/styles/ModalBase.css'
import '@mantine/core/styles/Modal.css'

/** Asks for the new address; the server mails a link to it and the change waits for that link. */
export default function ChangeEmailDialog({ current, onClose }: { current: string; onClose: () => void }) {
  const { t } = useTranslation()
  const { changeEmail } = useProfileActions()
  const [email, setEmail] = useState('')
  const [error, setError] = useState<FieldProblem | 'same' | null>(null)
  const [busy, setBusy] = useState(false)

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const problem =
      checkEmail(email) ?? (email.trim().toLowerCase() === current.toLowerCase() ? 'same' : null)
    setError(problem)
    if (problem) return
    setBusy(true)
    try {
      const sent = await notify.pending(changeEmail(email.trim()), { pending: t('account.email.pending') })
      if (sent)
        notify.success(t('account.email.sent', { email: email.trim() }), t('account.email.sent_title'))
      else notify.error(t('account.email.not_sent'))
      onClose()
    } catch {
      setBusy(false)
    }
  }

  return (
    <Modal opened onClose={onClose} title={t('account.email.title')}>
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <Text size="sm">{t('account.email.body', { email: current })}</Text>
          <TextInput
            label={t('account.field.new_email')}
            type="email"
            value={email}
            onChange={(e) => {
              setEmail(e.currentTarget.value)
              setError(null)
            }}
            error={error ? t(`account.error.${error === 'same' ? 'same_email' : error}`) : null}
            autoComplete="email"
            required
            data-autofocus
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.button.cancel')}
            </Button>
            <Button type="submit" loading={busy}>
              {t('account.email.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  )
}
