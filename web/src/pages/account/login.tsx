import { AccountHeading } from '@/features/account/components/account-heading'
import { LoginForm } from '@/features/account/components/login-form'
import { useConfig } from '@/features/info/api'
import { OidcErrorAlert, OidcProviderButtons } from '@/features/oidc/components/oidc-login'
import { usePageTitle } from '@/hooks/use-page-title'
import { useTranslation } from '@/i18n'

export default function LoginPage() {
  const { t } = useTranslation()
  const { config } = useConfig()
  usePageTitle(t('account.login.title'))
  return (
    <>
      <AccountHeading title={t('account.login.title')}>
        {t('account.login.subtitle', { title: config?.title || 'Pennant' })}
      </AccountHeading>
      <OidcErrorAlert />
      <LoginForm />
      <OidcProviderButtons />
    </>
  )
}
