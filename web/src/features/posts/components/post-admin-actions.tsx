import { ActionIcon, Group } from '@mantine/core'
import { IconPencil, IconPin, IconPinnedOff } from '@tabler/icons-react'
import { Link } from 'react-router'
import { paths } from '@/features/paths'
import { useSubmit } from '@/hooks/use-submit'
import { useTranslation } from '@/i18n'
import { type PostInfo, usePostActions } from '../api'

/** Pin / unpin and edit, for admins, on a post card. */
export function PostAdminActions({ post }: { post: PostInfo }) {
  const { t } = useTranslation()
  const { togglePin } = usePostActions()
  const { busy, run } = useSubmit()
  const pinLabel = t(post.isPinned ? 'post.action.unpin' : 'post.action.pin', { title: post.title })

  const pin = () =>
    run(() => togglePin(post), { success: t(post.isPinned ? 'post.action.unpinned' : 'post.action.pinned') })

  return (
    <Group gap={4} wrap="nowrap">
      <ActionIcon
        variant="subtle"
        color="gray"
        onClick={pin}
        loading={busy}
        aria-label={pinLabel}
        title={pinLabel}
        aria-pressed={post.isPinned}
      >
        {post.isPinned ? <IconPinnedOff size={18} aria-hidden /> : <IconPin size={18} aria-hidden />}
      </ActionIcon>
      <ActionIcon
        component={Link}
        to={paths.postEdit(post.id)}
        variant="subtle"
        color="gray"
        aria-label={t('post.action.edit', { title: post.title })}
        title={t('post.action.edit', { title: post.title })}
      >
        <IconPencil size={18} aria-hidden />
      </ActionIcon>
    </Group>
  )
}
