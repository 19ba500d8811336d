import { Center, Container, Loader } from '@mantine/core'
import type { ReactNode } from 'react'
import { Navigate, useLocation } from 'react-router'
import type { Role } from '@/api/types'
import { LoadFailed } from '@/components/load-failed'
import { hasRole, useUser } from '@/features/account/api'
import { loginHref } from '@/features/paths'
import { useTranslation } from '@/i18n'
import NotFound from '@/pages/not-found'

/**
 * Shows `children` only to a signed-in user of at least role `min`: anonymous visitors go to the
 * login page (and come back after), a lower role sees "not found", as the seed's client does.
 * Only the server's 401 or 403 means signed out: when it cannot say (overloaded, restarting,
 * offline), the page says so and offers a retry, instead of sending a signed-in user to log in.
 */
export function RequireRole({ min = 'User', children }: { min?: Role; children: ReactNode }) {
  const { user, isLoading, error, mutate } = useUser()
  const location = useLocation()
  const { t } = useTranslation()
  if (isLoading)
    return (
      <Center mih="40vh">
        <Loader aria-label={t('common.loading')} />
      </Center>
    )
  if (!user && error)
    return (
      <Container size="sm" py="xl">
        <LoadFailed title={t('common.error.session_check')} error={error} onRetry={() => mutate()} />
      </Container>
    )
  if (!user) return <Navigate to={loginHref(location.pathname + location.search)} replace />
  if (!hasRole(user.role, min)) return <NotFound />
  return children
}
