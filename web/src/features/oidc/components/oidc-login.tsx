import { Alert, Button, Divider, Stack } from '@mantine/core'
import { IconLogin2 } from '@tabler/icons-react'
import { useSearchParams } from 'react-router'
import { useTranslation } from '@/i18n'
import { safeRedirect } from '@/utils/redirect'
import { usePublicProviders } from '../api'
import { oidcErrorKey } from '../provider-form'
import '@mantine/core/styles/Divider.css'

/** Why the last sign-in through a provider did not finish (`?oidcError=` from the server). */
export function OidcErrorAlert() {
  const { t } = useTranslation()
  const [search] = useSearchParams()
  const reason = search.get('oidcError')
  const key = oidcErrorKey(reason)
  if (!key) return null
  // A new account waiting for an admin is news, not a failure.
  const waiting = reason === 'awaiting_activation'
  return (
    <Alert
      color={waiting ? 'blue' : 'red'}
      role="alert"
      title={t(waiting ? 'account.oidc.waiting_title' : 'account.oidc.failed_title')}
      mb="md"
    >
      {t(key)}
    </Alert>
  )
}

/**
 * "Continue with …" for each provider an admin enabled (nothing while the switch is off). Plain
 * links: the server answers with a redirect to the provider and keeps `from` for the way back.
 */
export function OidcProviderButtons() {
  const { t } = useTranslation()
  const [search] = useSearchParams()
  const providers = usePublicProviders()
  if (!providers.length) return null
  const from = safeRedirect(search.get('from'))
  const query = from === '/' ? '' : `?from=${encodeURIComponent(from)}`
  return (
    <Stack gap="xs" mt="lg">
      <Divider label={t('account.oidc.or')} labelPosition="center" />
      {providers.map((p) => (
        <Button
          key={p.slug}
          component="a"
          href={`/api/ext/oidc/${encodeURIComponent(p.slug)}/start${query}`}
          variant="default"
          fullWidth
          leftSection={<IconLogin2 size={18} aria-hidden />}
        >
          {t('account.oidc.continue_with', { name: p.displayName })}
        </Button>
      ))}
    </Stack>
  )
}
