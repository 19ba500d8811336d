import { Anchor, Button, PasswordInput, Stack, Text, TextInput } from '@mantine/core'
import { type FormEvent, useState } from 'react'
import { Link, useNavigate, useSearchParams } from 'react-router'
import { CaptchaField } from '@/features/captcha/components/captcha-field'
import { useCaptcha } from '@/features/captcha/use-captcha'
import { paths } from '@/features/paths'
import { useTranslation } from '@/i18n'
import { notify } from '@/utils/notify'
import { safeRedirect } from '@/utils/redirect'
import { useSignIn } from '../actions'
import { checkEmail, checkNewPassword, checkRetype, checkUserName, type FieldProblem } from '../validation'
import { PasswordStrengthInput } from './password-strength-input'

type Field = 'email' | 'userName' | 'password' | 'retype'

/**
 * Creates an account. What happens next is the server's call (account policy): signed in at
 * once, waiting for an administrator, or waiting for the e-mail link.
 */
export function RegisterForm() {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const [search] = useSearchParams()
  const { register } = useSignIn()
  const captcha = useCaptcha()
  const [values, setValues] = useState<Record<Field, string>>({
    email: '',
    userName: '',
    password: '',
    retype: '',
  })
  const [errors, setErrors] = useState<Partial<Record<Field, FieldProblem | null>>>({})
  const [busy, setBusy] = useState(false)

  const set = (field: Field) => (value: string) => {
    setValues((v) => ({ ...v, [field]: value }))
    setErrors((e) => ({ ...e, [field]: null }))
  }

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const found = {
      email: checkEmail(values.email),
      userName: checkUserName(values.userName),
      password: checkNewPassword(values.password),
      retype: checkRetype(values.password, values.retype),
    }
    setErrors(found)
    if (Object.values(found).some(Boolean)) return
    setBusy(true)
    try {
      const status = await notify.pending(
        (async () => {
          const challenge = await captcha.answer()
          return register({
            email: values.email.trim(),
            userName: values.userName.trim(),
            password: values.password,
            challenge,
          })
        })(),
        { pending: t('account.register.pending') },
      )
      if (status === 'LoggedIn') {
        notify.success(t('account.register.logged_in'))
        navigate(safeRedirect(search.get('from')), { replace: true })
      } else if (status === 'AdminConfirmationRequired') {
        notify.info(t('account.register.admin_confirmation'), t('account.register.done_title'))
        navigate(paths.account.login, { replace: true })
      } else {
        notify.info(t('account.register.email_confirmation'), t('account.register.done_title'))
        navigate(paths.account.login, { replace: true })
      }
    } catch {
      captcha.renew()
      setBusy(false)
    }
  }

  const problem = (field: Field) => {
    const p = errors[field]
    return p ? t(`account.error.${p}`) : null
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <TextInput
          label={t('account.field.email')}
          type="email"
          value={values.email}
          onChange={(e) => set('email')(e.currentTarget.value)}
          error={problem('email')}
          autoComplete="email"
          required
        />
        <TextInput
          label={t('account.field.user_name')}
          description={t('account.field.user_name_hint')}
          value={values.userName}
          onChange={(e) => set('userName')(e.currentTarget.value)}
          error={problem('userName')}
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          maxLength={15}
          required
        />
        <PasswordStrengthInput
          label={t('account.field.password')}
          value={values.password}
          onChange={set('password')}
          error={problem('password')}
        />
        <PasswordInput
          label={t('account.field.retype')}
          value={values.retype}
          onChange={(e) => set('retype')(e.currentTarget.value)}
          error={problem('retype')}
          autoComplete="new-password"
          required
        />
        <CaptchaField captcha={captcha} action="register" />
        <Button type="submit" fullWidth loading={busy}>
          {t('account.register.submit')}
        </Button>
        <Text size="sm" ta="center">
          {t('account.register.have_account')}{' '}
          <Anchor component={Link} to={paths.account.login}>
            {t('account.register.login')}
          </Anchor>
        </Text>
      </Stack>
    </form>
  )
}
