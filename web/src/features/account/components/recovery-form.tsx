import { Alert, Anchor, Button, Stack, Text, TextInput } from '@mantine/core'
import { IconMailCheck } from '@tabler/icons-react'
import { type FormEvent, useState } from 'react'
import { Link } from 'react-router'
import { CaptchaField } from '@/features/captcha/components/captcha-field'
import { useCaptcha } from '@/features/captcha/use-captcha'
import { paths } from '@/features/paths'
import { useTranslation } from '@/i18n'
import { notify } from '@/utils/notify'
import { requestRecovery } from '../actions'
import { checkEmail, type FieldProblem } from '../validation'

/** Asks for a password-reset mail; the page then says where to look. */
export function RecoveryForm() {
  const { t } = useTranslation()
  const captcha = useCaptcha()
  const [email, setEmail] = useState('')
  const [error, setError] = useState<FieldProblem | null>(null)
  const [busy, setBusy] = useState(false)
  const [sentTo, setSentTo] = useState<string | null>(null)

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const problem = checkEmail(email)
    setError(problem)
    if (problem) return
    setBusy(true)
    try {
      await notify.pending(
        (async () => {
          const challenge = await captcha.answer()
          await requestRecovery({ email: email.trim(), challenge })
        })(),
        { pending: t('account.recovery.pending'), success: t('account.recovery.sent') },
      )
      setSentTo(email.trim())
    } catch {}
    captcha.renew()
    setBusy(false)
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        {sentTo && (
          <Alert color="teal" icon={<IconMailCheck size={18} aria-hidden />} role="status">
            {t('account.recovery.sent_to', { email: sentTo })}
          </Alert>
        )}
        <TextInput
          label={t('account.field.email')}
          type="email"
          value={email}
          onChange={(e) => {
            setEmail(e.currentTarget.value)
            setError(null)
          }}
          error={error ? t(`account.error.${error}`) : null}
          autoComplete="email"
          required
        />
        <CaptchaField captcha={captcha} action="recovery" />
        <Button type="submit" fullWidth loading={busy}>
          {t('account.recovery.submit')}
        </Button>
        <Text size="sm" ta="center">
          <Anchor component={Link} to={paths.account.login}>
            {t('account.recovery.back')}
          </Anchor>
        </Text>
      </Stack>
    </form>
  )
}
