import { useSearchParams } from 'react-router'
import { AccountHeading } from '@/features/account/components/account-heading'
import { InvalidLink } from '@/features/account/components/invalid-link'
import { ResetForm } from '@/features/account/components/reset-form'
import { readLinkParams } from '@/features/account/link-params'
import { usePageTitle } from '@/features/info/use-page-title'
import { paths } from '@/features/paths'
import { useTranslation } from '@/i18n'

export default function ResetPage() {
  const { t } = useTranslation()
  const [search] = useSearchParams()
  const link = readLinkParams(search)
  usePageTitle(t('account.reset.title'))
  return (
    <>
      <AccountHeading title={t('account.reset.title')} />
      {link?.address ? (
        <ResetForm link={link} />
      ) : (
        <InvalidLink
          reason={t('account.link.incomplete')}
          retry={{ to: paths.account.recovery, label: t('account.reset.new_link') }}
        />
      )}
    </>
  )
}
