import { Stack, Text } from '@mantine/core'
import type { Icon } from '@tabler/icons-react'
import type { ReactNode } from 'react'

/** An empty or failed data view: an icon, a line saying what is (not) here, and maybe an action. */
export function EmptyView({
  icon: ItemIcon,
  title,
  description,
  children,
  mih = 200,
}: {
  icon: Icon
  title: ReactNode
  description?: ReactNode
  children?: ReactNode
  mih?: number | string
}) {
  return (
    <Stack align="center" justify="center" gap={6} mih={mih} ta="center" p="md">
      <ItemIcon size={40} stroke={1.4} aria-hidden color="var(--mantine-color-dimmed)" />
      <Text fw={600}>{title}</Text>
      {description && (
        <Text c="dimmed" size="sm" maw={420}>
          {description}
        </Text>
      )}
      {children}
    </Stack>
  )
}
