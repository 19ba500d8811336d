import { Button, PasswordInput, Stack, Text } from '@mantine/core'
import { type FormEvent, useState } from 'react'
import { useNavigate } from 'react-router'
import { paths } from '@/features/paths'
import { useTranslation } from '@/i18n'
import { notify } from '@/utils/notify'
import { resetPassword } from '../actions'
import type { LinkParams } from '../link-params'
import { checkNewPassword, checkRetype, type FieldProblem } from '../validation'
import { PasswordStrengthInput } from './password-strength-input'

/** A new password for the account of a reset link; `email` and `token` go back exactly as mailed. */
export function ResetForm({ link }: { link: LinkParams }) {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const [password, setPassword] = useState('')
  const [retype, setRetype] = useState('')
  const [errors, setErrors] = useState<{ password?: FieldProblem | null; retype?: FieldProblem | null }>({})
  const [busy, setBusy] = useState(false)

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const found = { password: checkNewPassword(password), retype: checkRetype(password, retype) }
    setErrors(found)
    if (found.password || found.retype) return
    setBusy(true)
    try {
      await notify.pending(resetPassword({ password, email: link.email, rToken: link.token }), {
        pending: t('account.reset.pending'),
        success: t('account.reset.done'),
      })
      navigate(paths.account.login, { replace: true })
    } catch {
      setBusy(false)
    }
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        {link.address && (
          <Text size="sm" ta="center">
            {t('account.reset.for', { email: link.address })}
          </Text>
        )}
        <PasswordStrengthInput
          label={t('account.field.new_password')}
          value={password}
          onChange={(value) => {
            setPassword(value)
            setErrors((e) => ({ ...e, password: null }))
          }}
          error={errors.password ? t(`account.error.${errors.password}`) : null}
        />
        <PasswordInput
          label={t('account.field.retype')}
          value={retype}
          onChange={(e) => {
            setRetype(e.currentTarget.value)
            setErrors((x) => ({ ...x, retype: null }))
          }}
          error={errors.retype ? t(`account.error.${errors.retype}`) : null}
          autoComplete="new-password"
          required
        />
        <Button type="submit" fullWidth loading={busy}>
          {t('account.reset.submit')}
        </Button>
      </Stack>
    </form>
  )
}
