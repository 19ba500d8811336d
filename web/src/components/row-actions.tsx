import { ActionIcon } from '@mantine/core'
import { IconEdit, IconTrash } from '@tabler/icons-react'

/** The icon button that opens a list row's editor: named for screen readers after its row. */
export function EditAction({ label, title, onClick }: { label: string; title: string; onClick: () => void }) {
  return (
    <ActionIcon variant="subtle" onClick={onClick} aria-label={label} title={title}>
      <IconEdit size={16} aria-hidden />
    </ActionIcon>
  )
}

/** The red icon button that deletes a list row (the caller asks for confirmation). */
export function DeleteAction({
  label,
  title,
  onClick,
  loading,
}: {
  label: string
  title: string
  onClick: () => void
  loading?: boolean
}) {
  return (
    <ActionIcon
      variant="subtle"
      color="red"
      loading={loading}
      onClick={onClick}
      aria-label={label}
      title={title}
    >
      <IconTrash size={16} aria-hidden />
    </ActionIcon>
  )
}
