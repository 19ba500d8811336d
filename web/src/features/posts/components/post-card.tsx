import { Anchor, Group, Paper, Stack, Title } from '@mantine/core'
import { IconArrowRight } from '@tabler/icons-react'
import { Link } from 'react-router'
import { Markdown } from '@/components/markdown'
import { paths } from '@/features/paths'
import { useTranslation } from '@/i18n'
import type { PostInfo } from '../api'
import { PostAdminActions } from './post-admin-actions'
import { PinnedBadge, PostByline, PostTags } from './post-meta'
import classes from './posts.module.css'

/** A post in a list: pinned marker, title, Markdown summary, tags, author, date, "read more". */
export function PostCard({ post, admin, level = 3 }: { post: PostInfo; admin?: boolean; level?: 2 | 3 }) {
  const { t } = useTranslation()
  return (
    <Paper component="article" withBorder radius="md" p={{ base: 'md', sm: 'lg' }} className={classes.card}>
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
          <Stack gap={6} style={{ minWidth: 0 }}>
            {post.isPinned && (
              <div>
                <PinnedBadge />
              </div>
            )}
            <Title order={level} size="h3" className={classes.title}>
              {post.title}
            </Title>
          </Stack>
          {admin && <PostAdminActions post={post} />}
        </Group>
        {post.summary && (
          <div className={classes.summary}>
            <Markdown source={post.summary} />
          </div>
        )}
        <PostTags tags={post.tags} />
        <Group justify="space-between" gap="xs" wrap="wrap">
          <PostByline post={post} />
          <Anchor
            component={Link}
            to={paths.post(post.id)}
            size="sm"
            fw={600}
            className={classes.more}
            // Starts with the visible words, then says which post (no stray space before the colon).
            aria-label={t('post.read_more_named', { title: post.title })}
          >
            {t('post.read_more')}
            <IconArrowRight size={14} aria-hidden />
          </Anchor>
        </Group>
      </Stack>
    </Paper>
  )
}
