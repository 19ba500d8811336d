import { Badge, Button, Group, Paper, Stack, Title } from '@mantine/core'
import { IconBan, IconKey, IconRestore } from '@tabler/icons-react'
import { useState } from 'react'
import { confirm } from '@/components/confirm'
import { RecordList } from '@/components/record-list'
import records from '@/components/record-list.module.css'
import { DeleteAction } from '@/components/row-actions'
import { useTranslation } from '@/i18n'
import { formatDateTime } from '@/utils/format-date'
import { notify } from '@/utils/notify'
import { type ApiToken, sortTokens, type TokenState, tokenState } from '../../token-form'
import { useTokenActions, useTokens } from '../../tokens-api'
import { CreateTokenModal } from './create-token-modal'
import { TokenSecretModal } from './token-secret-modal'
import '@mantine/core/styles/Badge.css'

const STATE_COLOR: Record<TokenState, string> = { active: 'teal', revoked: 'red', expired: 'orange' }

function TokenItem({ token, now }: { token: ApiToken; now: number }) {
  const { t } = useTranslation()
  const actions = useTokenActions()
  const [busy, setBusy] = useState<'toggle' | 'delete' | null>(null)
  const state = tokenState(token, now)
  const name = token.name

  const run = async (kind: 'toggle' | 'delete', action: () => Promise<unknown>, done: string) => {
    setBusy(kind)
    try {
      await action()
      notify.success(done)
    } catch (err) {
      notify.error(err)
    } finally {
      setBusy(null)
    }
  }

  const toggle = () =>
    token.isRevoked
      ? run('toggle', () => actions.restore(token.id), t('admin.tokens.restored', { name }))
      : run('toggle', () => actions.revoke(token.id), t('admin.tokens.revoked', { name }))

  const remove = async () => {
    const ok = await confirm({
      title: t('admin.tokens.delete'),
      message: t('admin.tokens.delete_confirm', { name }),
      confirmLabel: t('admin.tokens.delete'),
      danger: true,
    })
    if (ok) await run('delete', () => actions.remove(token.id), t('admin.tokens.deleted', { name }))
  }

  return (
    <Paper component="li" withBorder radius="md" p={{ base: 'sm', sm: 'md' }}>
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" gap="xs" wrap="nowrap">
          <Group gap="xs" style={{ minWidth: 0 }}>
            <Title order={2} size="h5" style={{ overflowWrap: 'anywhere' }}>
              {name}
            </Title>
            <Badge color={STATE_COLOR[state]} variant="light">
              {t(`admin.tokens.state.${state}`)}
            </Badge>
          </Group>
          <Group gap={4} wrap="nowrap">
            <Button
              size="xs"
              variant="light"
              color={token.isRevoked ? 'teal' : 'orange'}
              loading={busy === 'toggle'}
              leftSection={
                token.isRevoked ? <IconRestore size={14} aria-hidden /> : <IconBan size={14} aria-hidden />
              }
              onClick={toggle}
              aria-label={t(token.isRevoked ? 'admin.tokens.restore_named' : 'admin.tokens.revoke_named', {
                name,
              })}
            >
              {t(token.isRevoked ? 'admin.tokens.restore' : 'admin.tokens.revoke')}
            </Button>
            <DeleteAction
              label={t('admin.tokens.delete_named', { name })}
              title={t('admin.tokens.delete')}
              onClick={remove}
              loading={busy === 'delete'}
            />
          </Group>
        </Group>
        <dl className={records.facts}>
          <div>
            <dt>{t('admin.tokens.col.creator')}</dt>
            <dd>{token.creator ?? t('admin.tokens.creator_gone')}</dd>
          </div>
          <div>
            <dt>{t('admin.tokens.col.created')}</dt>
            <dd>{formatDateTime(token.createdAt)}</dd>
          </div>
          <div>
            <dt>{t('admin.tokens.col.expires')}</dt>
            <dd>{token.expiresAt === null ? t('admin.tokens.never') : formatDateTime(token.expiresAt)}</dd>
          </div>
          <div>
            <dt>{t('admin.tokens.col.last_used')}</dt>
            <dd>
              {token.lastUsedAt === null ? t('admin.tokens.never_used') : formatDateTime(token.lastUsedAt)}
            </dd>
          </div>
        </dl>
      </Stack>
    </Paper>
  )
}

/** Every API token, newest first, with create (secret shown once), revoke / restore and delete. */
export function TokenList() {
  const { t } = useTranslation()
  const { data, error, isLoading, mutate } = useTokens()
  const [creating, setCreating] = useState(false)
  const [created, setCreated] = useState<{ token: string; name: string } | null>(null)
  const tokens = sortTokens(data ?? [])
  const now = Date.now()

  return (
    <Stack gap="sm">
      <RecordList
        data={data}
        isLoading={isLoading}
        error={error}
        onRetry={() => mutate()}
        count={tokens.length}
        label={t('admin.tokens.list_label')}
        empty={{ icon: IconKey, title: t('admin.tokens.none'), description: t('admin.tokens.none_hint') }}
        add={{ label: t('admin.tokens.new'), onClick: () => setCreating(true) }}
      >
        {tokens.map((token) => (
          <TokenItem key={token.id} token={token} now={now} />
        ))}
      </RecordList>
      <CreateTokenModal
        opened={creating}
        onClose={() => setCreating(false)}
        onCreated={(token, name) => setCreated({ token, name })}
      />
      <TokenSecretModal created={created} onClose={() => setCreated(null)} />
    </Stack>
  )
}
