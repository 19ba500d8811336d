import { AccountHeading } from '@/features/account/components/account-heading'
import { RegisterForm } from '@/features/account/components/register-form'
import { useConfig } from '@/features/info/api'
import { usePageTitle } from '@/features/info/use-page-title'
import { useTranslation } from '@/i18n'

export default function RegisterPage() {
  const { t } = useTranslation()
  const { config } = useConfig()
  usePageTitle(t('account.register.title'))
  return (
    <>
      <AccountHeading title={t('account.register.title')}>
        {t('account.register.subtitle', { title: config?.title || 'Pennant' })}
      </AccountHeading>
      <RegisterForm />
    </>
  )
}
