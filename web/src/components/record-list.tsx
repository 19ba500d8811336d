import { Button, Group } from '@mantine/core'
import { type Icon, IconPlus } from '@tabler/icons-react'
import type { ReactNode } from 'react'
import type { ApiError } from '@/api/error'
import { DataState } from '@/components/data-state'
import records from './record-list.module.css'

/**
 * An admin list of records (tokens, webhooks, identity providers): its loading, failed and empty
 * states, the add button (above the list once there is one, inside the empty state before), and
 * the cards themselves, which `children` renders as `<li>`s.
 */
export function RecordList({
  data,
  isLoading,
  error,
  onRetry,
  count,
  label,
  empty,
  add,
  children,
}: {
  data: unknown
  isLoading: boolean
  error?: ApiError
  onRetry: () => void
  count: number
  /** The list's accessible name. */
  label: string
  empty: { icon: Icon; title: ReactNode; description: ReactNode }
  add: { label: ReactNode; onClick: () => void }
  children: ReactNode
}) {
  const addButton = (
    <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={add.onClick}>
      {add.label}
    </Button>
  )
  return (
    <>
      {count > 0 && <Group justify="flex-end">{addButton}</Group>}
      <DataState
        loading={isLoading && !data}
        error={data ? undefined : error}
        onRetry={onRetry}
        isEmpty={count === 0}
        empty={{ ...empty, action: addButton }}
      >
        <ul className={records.list} aria-label={label}>
          {children}
        </ul>
      </DataState>
    </>
  )
}
