import { Alert, Code, Group, Stack, Text } from '@mantine/core'
import { IconAlertTriangle, IconBox, IconCircleCheck, IconShieldX } from '@tabler/icons-react'
import { useTranslation } from '@/i18n'
import { useContainerStatus } from '../api'

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <Text size="sm" span>
      <Text span c="dimmed" inherit>
        {label}:
      </Text>{' '}
      <Text span fw={600} inherit style={{ overflowWrap: 'anywhere' }}>
        {value}
      </Text>
    </Text>
  )
}

/**
 * Whether this server can run challenge containers: not configured (with what to set), the
 * engine not answering (with its message), or which backend runs and how.
 */
export function ContainerStatusBanner() {
  const { t } = useTranslation()
  const { data, error } = useContainerStatus()
  if (error)
    return (
      <Alert color="red" icon={<IconAlertTriangle aria-hidden />} title={t('admin.container_status.error')}>
        {error.title}
      </Alert>
    )
  if (!data) return null
  if (data.backend === 'none')
    return (
      <Alert color="yellow" icon={<IconBox aria-hidden />} title={t('admin.container_status.none')}>
        {t('admin.container_status.none_hint_before')} <Code>CONTAINER_BACKEND=docker</Code>{' '}
        {t('admin.container_status.none_hint_after')}
      </Alert>
    )
  const backend = t(`admin.container_status.backend_${data.backend}`)
  if (!data.available)
    return (
      <Alert
        color="red"
        icon={<IconAlertTriangle aria-hidden />}
        title={t('admin.container_status.unavailable', { backend })}
      >
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {data.message || t('common.error.unknown')}
        </Text>
      </Alert>
    )
  const isolation = data.isolation
  const exposed = isolation?.state === 'exposed' || isolation?.state === 'unverified'
  const ready = (
    <Alert
      color="teal"
      icon={<IconCircleCheck aria-hidden />}
      title={t('admin.container_status.ready', { backend })}
    >
      <Group gap="lg" style={{ rowGap: 2 }}>
        <Fact label={t('admin.container_status.version')} value={data.version || '—'} />
        <Fact label={t('admin.container_status.public_host')} value={data.publicHost} />
        <Fact
          label={t('admin.container_status.storage')}
          value={t(
            data.storageLimits ? 'admin.container_status.storage_on' : 'admin.container_status.storage_off',
          )}
        />
        {isolation && (
          <Fact
            label={t('admin.container_status.isolation')}
            value={t(
              isolation.state === 'isolated'
                ? 'admin.container_status.isolation_isolated'
                : isolation.state === 'checking'
                  ? 'admin.container_status.isolation_checking'
                  : 'admin.container_status.isolation_unverified',
            )}
          />
        )}
      </Group>
      {data.message && (
        <Text size="sm" c="dimmed" mt={4}>
          {data.message}
        </Text>
      )}
    </Alert>
  )
  if (!isolation || !exposed) return ready
  return (
    <Stack gap="sm">
      {ready}
      <Alert
        color={isolation.state === 'exposed' ? 'red' : 'yellow'}
        icon={<IconShieldX aria-hidden />}
        title={t(
          isolation.state === 'exposed'
            ? 'admin.container_status.isolation_exposed_title'
            : 'admin.container_status.isolation_unverified_title',
        )}
      >
        {isolation.message && (
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {isolation.message}
          </Text>
        )}
        <Text size="sm" mt={4}>
          {t('admin.container_status.isolation_hint')} <Code>docs/operators/container-isolation.md</Code>
        </Text>
      </Alert>
    </Stack>
  )
}
