import { useNavigate, useSearchParams } from 'react-router'
import { useSignIn } from '@/features/account/actions'
import { AccountHeading } from '@/features/account/components/account-heading'
import { InvalidLink } from '@/features/account/components/invalid-link'
import { LinkConfirm } from '@/features/account/components/link-confirm'
import { readLinkParams } from '@/features/account/link-params'
import { usePageTitle } from '@/features/info/use-page-title'
import { paths } from '@/features/paths'
import { useTranslation } from '@/i18n'
import { notify } from '@/utils/notify'

/** The registration link: confirming the address activates the account and signs in. */
export default function VerifyPage() {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const [search] = useSearchParams()
  const { verify } = useSignIn()
  const link = readLinkParams(search)
  usePageTitle(t('account.verify.title'))
  return (
    <>
      <AccountHeading title={t('account.verify.title')} />
      {link?.address ? (
        <LinkConfirm
          message={t('account.verify.body', { email: link.address })}
          label={t('account.verify.submit')}
          pending={t('account.verify.pending')}
          action={async () => {
            await verify({ token: link.token, email: link.email })
            notify.success(t('account.verify.done'))
            navigate(paths.home, { replace: true })
          }}
        />
      ) : (
        <InvalidLink />
      )}
    </>
  )
}
