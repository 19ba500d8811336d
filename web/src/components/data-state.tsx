import { Center, EmptyState, Loader } from '@mantine/core'
import type { Icon } from '@tabler/icons-react'
import type { ReactNode } from 'react'
import type { ApiError } from '@/api/error'
import { LoadFailed } from '@/components/load-failed'
import { useTranslation } from '@/i18n'
import '@mantine/core/styles/EmptyState.css'

/**
 * The loading, failed and empty states of a data view, or its content. `empty` is shown when
 * the data arrived and there is nothing in it.
 */
export function DataState({
  loading,
  error,
  onRetry,
  isEmpty,
  empty,
  children,
}: {
  loading: boolean
  error?: ApiError
  onRetry?: () => void
  isEmpty?: boolean
  empty?: { icon: Icon; title: ReactNode; description?: ReactNode; action?: ReactNode }
  children?: ReactNode
}) {
  const { t } = useTranslation()
  if (loading)
    return (
      <Center mih={160}>
        <Loader aria-label={t('common.loading')} />
      </Center>
    )
  if (error) return <LoadFailed title={t('admin.state.load_failed')} error={error} onRetry={onRetry} />
  if (isEmpty && empty) {
    const EmptyIcon = empty.icon
    return (
      <EmptyState
        my="xl"
        icon={<EmptyIcon size={32} aria-hidden />}
        title={empty.title}
        description={empty.description}
      >
        {empty.action}
      </EmptyState>
    )
  }
  return <>{children}</>
}
