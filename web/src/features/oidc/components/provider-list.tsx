import { Alert, Badge, Group, Paper, Stack, Switch, Title } from '@mantine/core'
import { IconFingerprint } from '@tabler/icons-react'
import { useState } from 'react'
import { confirm } from '@/components/confirm'
import { CopyField } from '@/components/copy-field'
import { RecordList } from '@/components/record-list'
import records from '@/components/record-list.module.css'
import { DeleteAction, EditAction } from '@/components/row-actions'
import { useSubmit } from '@/hooks/use-submit'
import { useTranslation } from '@/i18n'
import { notify } from '@/utils/notify'
import { type IdentityProvider, useIdentityProviders, useOidcSwitch, useProviderActions } from '../api'
import classes from './oidc.module.css'
import { ProviderModal } from './provider-modal'
import '@mantine/core/styles/Badge.css'
import '@mantine/core/styles/Switch.css'

function ProviderItem({ provider, onEdit }: { provider: IdentityProvider; onEdit: () => void }) {
  const { t } = useTranslation()
  const actions = useProviderActions()
  const [busy, setBusy] = useState<'enable' | 'delete' | null>(null)
  const name = provider.displayName

  const toggle = async (enabled: boolean) => {
    setBusy('enable')
    try {
      await actions.update(provider.id, { enabled })
      notify.success(t(enabled ? 'oidc.enabled_now' : 'oidc.disabled_now', { name }))
    } catch (err) {
      notify.error(err)
    } finally {
      setBusy(null)
    }
  }

  const remove = async () => {
    const ok = await confirm({
      title: t('oidc.delete'),
      message: t('oidc.delete_confirm', { name, linked: provider.linkedUsers }),
      confirmLabel: t('oidc.delete'),
      danger: true,
    })
    if (!ok) return
    setBusy('delete')
    try {
      await actions.remove(provider.id)
      notify.success(t('oidc.deleted', { name }))
    } catch (err) {
      notify.error(err)
      setBusy(null)
    }
  }

  return (
    <Paper component="li" withBorder radius="md" p={{ base: 'sm', sm: 'md' }}>
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" gap="xs">
          <Group gap="xs" style={{ minWidth: 0 }}>
            <Title order={2} size="h5" style={{ overflowWrap: 'anywhere' }}>
              {name}
            </Title>
            <Badge color={provider.enabled ? 'teal' : 'gray'} variant="light">
              {t(provider.enabled ? 'oidc.state.enabled' : 'oidc.state.disabled')}
            </Badge>
            {provider.allowSignUp && (
              <Badge color="blue" variant="light">
                {t('oidc.state.sign_up')}
              </Badge>
            )}
          </Group>
          <Group gap={4} wrap="nowrap">
            <Switch
              checked={provider.enabled}
              disabled={busy === 'enable'}
              onChange={(e) => toggle(e.currentTarget.checked)}
              label={t('oidc.field.enabled')}
              aria-label={t('oidc.enable_named', { name })}
            />
            <EditAction label={t('oidc.edit_named', { name })} title={t('oidc.edit')} onClick={onEdit} />
            <DeleteAction
              label={t('oidc.delete_named', { name })}
              title={t('oidc.delete')}
              onClick={remove}
              loading={busy === 'delete'}
            />
          </Group>
        </Group>
        <dl className={`${records.facts} ${classes.columns}`}>
          <div>
            <dt>{t('oidc.field.slug')}</dt>
            <dd>
              <code>{provider.slug}</code>
            </dd>
          </div>
          <div>
            <dt>{t('oidc.field.issuer')}</dt>
            <dd>
              <code>{provider.issuer}</code>
            </dd>
          </div>
          <div>
            <dt>{t('oidc.field.client_id')}</dt>
            <dd>
              <code>{provider.clientId}</code>
            </dd>
          </div>
          <div>
            <dt>{t('oidc.field.client_secret')}</dt>
            <dd>
              <code>{provider.clientSecretHint}</code>
            </dd>
          </div>
          <div>
            <dt>{t('oidc.field.claims')}</dt>
            <dd>
              <code>{provider.userNameClaim}</code>, <code>{provider.emailClaim}</code>
            </dd>
          </div>
          <div>
            <dt>{t('oidc.linked_users')}</dt>
            <dd>{provider.linkedUsers}</dd>
          </div>
        </dl>
        <CopyField
          label={t('oidc.redirect_uri')}
          value={provider.redirectUri}
          copyLabel={t('oidc.copy_redirect')}
        />
      </Stack>
    </Paper>
  )
}

/** The switch for the whole feature: providers can be prepared before players see them. */
function FeatureSwitch() {
  const { t } = useTranslation()
  const feature = useOidcSwitch()
  const { busy, run } = useSubmit()
  const flip = async (on: boolean) => {
    await run(() => feature.set(on), { success: t(on ? 'oidc.switch_on' : 'oidc.switch_off') })
  }
  return (
    <Paper withBorder radius="md" p={{ base: 'sm', sm: 'md' }}>
      <Switch
        size="md"
        checked={feature.on ?? false}
        disabled={feature.on === undefined || busy}
        onChange={(e) => flip(e.currentTarget.checked)}
        label={t('oidc.switch')}
        description={t('oidc.switch_hint')}
      />
    </Paper>
  )
}

/** Every identity provider, with add, edit, enable and delete, under the feature's switch. */
export function ProviderList() {
  const { t } = useTranslation()
  const { data, error, isLoading, mutate } = useIdentityProviders()
  const feature = useOidcSwitch()
  const [editing, setEditing] = useState<IdentityProvider | 'new' | null>(null)
  const providers = data ?? []

  return (
    <Stack gap="sm">
      <FeatureSwitch />
      {feature.on === false && providers.some((p) => p.enabled) && (
        <Alert color="yellow">{t('oidc.switch_off_note')}</Alert>
      )}
      <RecordList
        data={data}
        isLoading={isLoading}
        error={error}
        onRetry={() => mutate()}
        count={providers.length}
        label={t('oidc.list_label')}
        empty={{ icon: IconFingerprint, title: t('oidc.none'), description: t('oidc.none_hint') }}
        add={{ label: t('oidc.add'), onClick: () => setEditing('new') }}
      >
        {providers.map((p) => (
          <ProviderItem key={p.id} provider={p} onEdit={() => setEditing(p)} />
        ))}
      </RecordList>
      {editing && (
        <ProviderModal
          key={editing === 'new' ? 'new' : editing.id}
          provider={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
        />
      )}
    </Stack>
  )
}
