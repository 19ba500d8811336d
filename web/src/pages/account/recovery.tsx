import { AccountHeading } from '@/features/account/components/account-heading'
import { RecoveryForm } from '@/features/account/components/recovery-form'
import { usePageTitle } from '@/features/info/use-page-title'
import { useTranslation } from '@/i18n'

export default function RecoveryPage() {
  const { t } = useTranslation()
  usePageTitle(t('account.recovery.title'))
  return (
    <>
      <AccountHeading title={t('account.recovery.title')}>{t('account.recovery.subtitle')}</AccountHeading>
      <RecoveryForm />
    </>
  )
}
