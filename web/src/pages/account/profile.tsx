import { Center, Loader, Paper } from '@mantine/core'
import { Navigate, useLocation } from 'react-router'
import { useUser } from '@/features/account/api'
import { ProfileView } from '@/features/account/components/profile-view'
import { usePageTitle } from '@/features/info/use-page-title'
import { loginHref } from '@/features/paths'
import { useTranslation } from '@/i18n'

/** The signed-in user's profile; anonymous visitors sign in first and come back here. */
export default function ProfilePage() {
  const { t } = useTranslation()
  const { user, isLoading } = useUser()
  const location = useLocation()
  usePageTitle(t('account.profile.title'))
  if (isLoading)
    return (
      <Center mih={200}>
        <Loader aria-label={t('common.loading')} />
      </Center>
    )
  if (!user) return <Navigate to={loginHref(location.pathname + location.search)} replace />
  return (
    <Paper
      maw={720}
      mx="auto"
      my={{ base: 0, sm: 'md' }}
      p={{ base: 'md', xs: 'xl' }}
      withBorder
      radius="lg"
      shadow="sm"
    >
      <ProfileView key={user.userId} user={user} />
    </Paper>
  )
}
