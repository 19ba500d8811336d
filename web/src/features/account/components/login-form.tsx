import { Anchor, Button, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core'
import { type FormEvent, useState } from 'react'
import { Link, useNavigate, useSearchParams } from 'react-router'
import { CaptchaField } from '@/features/captcha/components/captcha-field'
import { useCaptcha } from '@/features/captcha/use-captcha'
import { paths } from '@/features/paths'
import { useTranslation } from '@/i18n'
import { notify } from '@/utils/notify'
import { safeRedirect } from '@/utils/redirect'
import { useSignIn } from '../actions'
import { checkLoginPassword, type FieldProblem } from '../validation'

/** Signs in with a user name or e-mail and goes back to `?from=` (same-site paths only) or home. */
export function LoginForm() {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const [search] = useSearchParams()
  const { login } = useSignIn()
  const captcha = useCaptcha()
  const [userName, setUserName] = useState('')
  const [password, setPassword] = useState('')
  const [errors, setErrors] = useState<{ userName?: FieldProblem | null; password?: FieldProblem | null }>({})
  const [busy, setBusy] = useState(false)
  const from = search.get('from')

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const found = {
      userName: userName.trim() ? null : ('required' as const),
      password: checkLoginPassword(password),
    }
    setErrors(found)
    if (found.userName || found.password) return
    setBusy(true)
    try {
      await notify.pending(
        (async () => {
          const challenge = await captcha.answer()
          await login({ userName: userName.trim(), password, challenge })
        })(),
        {
          pending: t('account.login.pending'),
          success: t('account.login.success'),
          failure: t('account.login.failed'),
        },
      )
      navigate(safeRedirect(from), { replace: true })
    } catch {
      // The toast has said why; the captcha answer is spent either way.
      captcha.renew()
      setBusy(false)
    }
  }

  const problem = (p?: FieldProblem | null) => (p ? t(`account.error.${p}`) : null)
  const registerTo = from
    ? `${paths.account.register}?from=${encodeURIComponent(from)}`
    : paths.account.register

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <TextInput
          label={t('account.field.user_name_or_email')}
          value={userName}
          onChange={(e) => {
            setUserName(e.currentTarget.value)
            setErrors((x) => ({ ...x, userName: null }))
          }}
          error={problem(errors.userName)}
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          required
        />
        <div>
          <PasswordInput
            label={t('account.field.password')}
            value={password}
            onChange={(e) => {
              setPassword(e.currentTarget.value)
              setErrors((x) => ({ ...x, password: null }))
            }}
            error={problem(errors.password)}
            autoComplete="current-password"
            required
          />
          <Group justify="flex-end" mt={6}>
            <Anchor component={Link} to={paths.account.recovery} size="sm">
              {t('account.login.forgot')}
            </Anchor>
          </Group>
        </div>
        <CaptchaField captcha={captcha} action="login" />
        <Button type="submit" fullWidth loading={busy}>
          {t('account.login.submit')}
        </Button>
        <Text size="sm" ta="center">
          {t('account.login.no_account')}{' '}
          <Anchor component={Link} to={registerTo}>
            {t('account.login.register')}
          </Anchor>
        </Text>
      </Stack>
    </form>
  )
}
