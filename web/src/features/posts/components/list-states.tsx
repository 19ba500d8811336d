import { EmptyState, Paper, Skeleton, Stack } from '@mantine/core'
import { IconNews } from '@tabler/icons-react'
import type { ReactNode } from 'react'
import { LoadFailed } from '@/components/load-failed'
import { useTranslation } from '@/i18n'
import '@mantine/core/styles/EmptyState.css'
import '@mantine/core/styles/Skeleton.css'

/** Placeholder cards while posts load. */
export function PostsLoading({ count = 3 }: { count?: number }) {
  const { t } = useTranslation()
  return (
    <Stack gap="md" aria-busy="true" aria-label={t('common.loading')}>
      {Array.from({ length: count }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: identical placeholders
        <Paper key={i} withBorder radius="md" p="lg">
          <Stack gap="sm" aria-hidden>
            <Skeleton height={22} width="55%" />
            <Skeleton height={12} />
            <Skeleton height={12} width="80%" />
            <Skeleton height={20} width={160} />
          </Stack>
        </Paper>
      ))}
    </Stack>
  )
}

/** Posts that failed to load, with the reason and a retry. */
export function LoadError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { t } = useTranslation()
  return <LoadFailed title={t('post.load_failed')} error={error} onRetry={onRetry} />
}

/** No posts yet; admins get the way to write the first one. */
export function PostsEmpty({ action }: { action?: ReactNode }) {
  const { t } = useTranslation()
  return (
    <Paper withBorder radius="md" p="xl">
      <EmptyState
        icon={<IconNews size={32} stroke={1.5} aria-hidden />}
        withIndicatorBackground
        title={t('post.empty.title')}
        description={t('post.empty.body')}
      >
        {action && <EmptyState.Actions>{action}</EmptyState.Actions>}
      </EmptyState>
    </Paper>
  )
}
