import { Avatar, Badge, Group, Text } from '@mantine/core'
import { IconPinFilled } from '@tabler/icons-react'
import { useTranslation } from '@/i18n'
import { formatDateTime } from '@/utils/format-date'
import type { PostInfo } from '../api'
import '@mantine/core/styles/Avatar.css'
import '@mantine/core/styles/Badge.css'

/** Author (avatar and name) and the time of the last update. */
export function PostByline({ post }: { post: PostInfo }) {
  const { t } = useTranslation()
  const name = post.authorName ?? t('post.unknown_author')
  return (
    <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
      <Avatar src={post.authorAvatar} alt="" size={24} radius="xl" color="brand">
        {name.slice(0, 1).toUpperCase()}
      </Avatar>
      <Text size="sm" truncate>
        {name}
      </Text>
      <Text
        size="sm"
        c="dimmed"
        component="time"
        dateTime={new Date(post.time).toISOString()}
        style={{ flex: 'none' }}
      >
        {formatDateTime(post.time)}
      </Text>
    </Group>
  )
}

export function PostTags({ tags }: { tags: string[] | null }) {
  const { t } = useTranslation()
  if (!tags?.length) return null
  return (
    <Group gap={6} component="ul" aria-label={t('post.tags')} p={0} m={0} style={{ listStyle: 'none' }}>
      {tags.map((tag) => (
        <li key={tag}>
          <Badge variant="light" radius="sm" tt="none">
            {tag}
          </Badge>
        </li>
      ))}
    </Group>
  )
}

export function PinnedBadge() {
  const { t } = useTranslation()
  return (
    <Badge variant="filled" leftSection={<IconPinFilled size={12} aria-hidden />} tt="none">
      {t('post.pinned')}
    </Badge>
  )
}
