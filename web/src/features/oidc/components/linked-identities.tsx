import { Alert, Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core'
import { IconLink, IconUnlink } from '@tabler/icons-react'
import { useState } from 'react'
import { useSearchParams } from 'react-router'
import { confirm } from '@/components/confirm'
import { useTranslation } from '@/i18n'
import { formatDate } from '@/utils/format-date'
import { notify } from '@/utils/notify'
import { startLink, useOwnIdentities, useUnlink } from '../api'
import { OidcErrorAlert } from './oidc-login'
import '@mantine/core/styles/Badge.css'

/**
 * The profile's "Sign-in with identity providers" section: link the account to a provider
 * (a round trip through the provider's own sign-in) or unlink it, unless that would leave the
 * account with no way in. Hidden while the switch is off.
 */
export function LinkedIdentities({ className }: { className?: string }) {
  const { t } = useTranslation()
  const [search] = useSearchParams()
  const { data, off } = useOwnIdentities()
  const unlink = useUnlink()
  const [busy, setBusy] = useState<string | null>(null)
  if (off || !data || data.providers.length === 0) return null

  const linkedCount = data.providers.filter((p) => p.linkedAt !== null && p.enabled).length
  const justLinked = data.providers.find((p) => p.slug === search.get('oidcLinked'))

  const link = async (slug: string) => {
    setBusy(slug)
    try {
      window.location.assign(await startLink(slug))
    } catch (err) {
      notify.error(err)
      setBusy(null)
    }
  }

  const remove = async (slug: string, name: string) => {
    const ok = await confirm({
      title: t('account.oidc.unlink'),
      message: t('account.oidc.unlink_confirm', { name }),
      confirmLabel: t('account.oidc.unlink'),
      danger: true,
    })
    if (!ok) return
    setBusy(slug)
    try {
      await unlink(slug)
      notify.success(t('account.oidc.unlinked', { name }))
    } catch (err) {
      notify.error(err)
    } finally {
      setBusy(null)
    }
  }

  return (
    <section aria-labelledby="profile-oidc" className={className}>
      <Title order={2} size="h4" id="profile-oidc" mb={4}>
        {t('account.oidc.section')}
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        {t(data.hasPassword ? 'account.oidc.section_hint' : 'account.oidc.section_hint_no_password')}
      </Text>
      <OidcErrorAlert />
      {justLinked && (
        <Alert color="teal" role="status" mb="md">
          {t('account.oidc.linked_now', { name: justLinked.displayName })}
        </Alert>
      )}
      <Stack gap="xs" component="ul" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
        {data.providers.map((p) => {
          const linked = p.linkedAt !== null
          // The last way in stays: no password and no other enabled provider.
          const last = linked && !data.hasPassword && linkedCount <= 1 && p.enabled
          return (
            <Paper component="li" key={p.slug} withBorder radius="md" p="sm">
              <Group justify="space-between" gap="xs">
                <div style={{ minWidth: 0 }}>
                  <Group gap="xs">
                    <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                      {p.displayName}
                    </Text>
                    <Badge color={linked ? 'teal' : 'gray'} variant="light">
                      {t(linked ? 'account.oidc.linked' : 'account.oidc.not_linked')}
                    </Badge>
                  </Group>
                  {linked && (
                    <Text size="xs" c="dimmed">
                      {t('account.oidc.linked_on', { date: formatDate(p.linkedAt!, 'long') })}
                    </Text>
                  )}
                  {last && (
                    <Text size="xs" c="dimmed">
                      {t('account.oidc.only_way')}
                    </Text>
                  )}
                </div>
                {linked ? (
                  <Button
                    size="xs"
                    variant="light"
                    color="red"
                    disabled={last}
                    loading={busy === p.slug}
                    leftSection={<IconUnlink size={14} aria-hidden />}
                    onClick={() => remove(p.slug, p.displayName)}
                    aria-label={t('account.oidc.unlink_named', { name: p.displayName })}
                  >
                    {t('account.oidc.unlink')}
                  </Button>
                ) : (
                  p.enabled && (
                    <Button
                      size="xs"
                      variant="light"
                      loading={busy === p.slug}
                      leftSection={<IconLink size={14} aria-hidden />}
                      onClick={() => link(p.slug)}
                      aria-label={t('account.oidc.link_named', { name: p.displayName })}
                    >
                      {t('account.oidc.link')}
                    </Button>
                  )
                )}
              </Group>
            </Paper>
          )
        })}
      </Stack>
    </section>
  )
}
