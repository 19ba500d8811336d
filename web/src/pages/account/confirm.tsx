import { Center, Loader } from '@mantine/core'
import { Navigate, useLocation, useNavigate, useSearchParams } from 'react-router'
import { useProfileActions } from '@/features/account/actions'
import { useUser } from '@/features/account/api'
import { AccountHeading } from '@/features/account/components/account-heading'
import { InvalidLink } from '@/features/account/components/invalid-link'
import { LinkConfirm } from '@/features/account/components/link-confirm'
import { readLinkParams } from '@/features/account/link-params'
import { usePageTitle } from '@/features/info/use-page-title'
import { loginHref, paths } from '@/features/paths'
import { useTranslation } from '@/i18n'
import { notify } from '@/utils/notify'

/** The e-mail change link: applies to the signed-in account, so it asks to sign in first. */
export default function ConfirmPage() {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const location = useLocation()
  const [search] = useSearchParams()
  const { user, isLoading } = useUser()
  const { confirmEmailChange } = useProfileActions()
  const link = readLinkParams(search)
  usePageTitle(t('account.confirm.title'))

  if (isLoading)
    return (
      <Center mih={200}>
        <Loader aria-label={t('common.loading')} />
      </Center>
    )
  // Back to this exact link after signing in.
  if (!user) return <Navigate to={loginHref(location.pathname + location.search)} replace />

  return (
    <>
      <AccountHeading title={t('account.confirm.title')} />
      {link?.address ? (
        <LinkConfirm
          message={t('account.confirm.body', { email: link.address, user: user.userName })}
          label={t('account.confirm.submit')}
          pending={t('account.confirm.pending')}
          retry={{ to: paths.account.profile, label: t('account.confirm.to_profile') }}
          action={async () => {
            await confirmEmailChange({ token: link.token, email: link.email })
            notify.success(t('account.confirm.done', { email: link.address }))
            navigate(paths.account.profile, { replace: true })
          }}
        />
      ) : (
        <InvalidLink retry={{ to: paths.account.profile, label: t('account.confirm.to_profile') }} />
      )}
    </>
  )
}
