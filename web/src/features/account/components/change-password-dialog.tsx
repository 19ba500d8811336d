import { Button, Group, Modal, PasswordInput, Stack } from '@mantine/core'
import { type FormEvent, useState } from 'react'
import { useTranslation } from '@/i18n'
import { notify } from '@/utils/notify'
import { useProfileActions } from '../actions'
import { checkLoginPassword, checkNewPassword, checkRetype, type FieldProblem } from '../validation'
import { PasswordStrengthInput } from './password-strength-input'
import '@mantine/core/styles/Overlay.css'
import '@mantine/core/styles/ModalBase.css'
import '@mantine/core/styles/Modal.css'

type Field = 'old' | 'new' | 'retype'

/** Old password, new one with the strength meter, and the retype. Other sessions end. */
export default function ChangePasswordDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation()
  const { changePassword } = useProfileActions()
  const [values, setValues] = useState<Record<Field, string>>({ old: '', new: '', retype: '' })
  const [errors, setErrors] = useState<Partial<Record<Field, FieldProblem | 'same' | null>>>({})
  const [busy, setBusy] = useState(false)

  const set = (field: Field) => (value: string) => {
    setValues((v) => ({ ...v, [field]: value }))
    setErrors((e) => ({ ...e, [field]: null }))
  }

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const found = {
      old: checkLoginPassword(values.old),
      new: checkNewPassword(values.new) ?? (values.new === values.old ? ('same' as const) : null),
      retype: checkRetype(values.new, values.retype),
    }
    setErrors(found)
    if (Object.values(found).some(Boolean)) return
    setBusy(true)
    try {
      await notify.pending(changePassword({ old: values.old, new: values.new }), {
        pending: t('account.password.pending'),
      })
      notify.success(t('account.password.changed_body'), t('account.password.changed'))
      onClose()
    } catch {
      setBusy(false)
    }
  }

  const problem = (field: Field) => {
    const p = errors[field]
    return p ? t(p === 'same' ? 'account.error.same_password' : `account.error.${p}`) : null
  }

  return (
    <Modal opened onClose={onClose} title={t('account.password.title')}>
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <PasswordInput
            label={t('account.field.old_password')}
            value={values.old}
            onChange={(e) => set('old')(e.currentTarget.value)}
            error={problem('old')}
            autoComplete="current-password"
            required
            data-autofocus
          />
          <PasswordStrengthInput
            label={t('account.field.new_password')}
            value={values.new}
            onChange={set('new')}
            error={problem('new')}
          />
          <PasswordInput
            label={t('account.field.retype')}
            value={values.retype}
            onChange={(e) => set('retype')(e.currentTarget.value)}
            error={problem('retype')}
            autoComplete="new-password"
            required
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.button.cancel')}
            </Button>
            <Button type="submit" loading={busy}>
              {t('account.password.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  )
}
