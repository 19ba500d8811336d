import { lazy, Suspense } from 'react'
import { AccountHeading } from '@/features/account/components/account-heading'
import { LoginForm } from '@/features/account/components/login-form'
import { useConfig } from '@/features/info/api'
import { usePageTitle } from '@/features/info/use-page-title'
import { useTranslation } from '@/i18n'

// Sign-in with an identity provider loads after the form: most platforms leave it off, and the
// account screens keep to their first-load budget.
const oidc = () => import('@/features/oidc/components/oidc-login')
const OidcErrorAlert = lazy(() => oidc().then((m) => ({ default: m.OidcErrorAlert })))
const OidcProviderButtons = lazy(() => oidc().then((m) => ({ default: m.OidcProviderButtons })))

export default function LoginPage() {
  const { t } = useTranslation()
  const { config } = useConfig()
  usePageTitle(t('account.login.title'))
  return (
    <>
      <AccountHeading title={t('account.login.title')}>
        {t('account.login.subtitle', { title: config?.title || 'Pennant' })}
      </AccountHeading>
      <Suspense fallback={null}>
        <OidcErrorAlert />
      </Suspense>
      <LoginForm />
      <Suspense fallback={null}>
        <OidcProviderButtons />
      </Suspense>
    </>
  )
}
