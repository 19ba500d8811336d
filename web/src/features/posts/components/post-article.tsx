import { Anchor, Button, Divider, Group, Skeleton, Stack, Title } from '@mantine/core'
import { IconArrowLeft, IconPencil } from '@tabler/icons-react'
import { Link } from 'react-router'
import { Markdown } from '@/components/markdown'
import { usePageTitle } from '@/features/info/use-page-title'
import { paths } from '@/features/paths'
import { useTranslation } from '@/i18n'
import type { PostDetail } from '../api'
import { PinnedBadge, PostByline, PostTags } from './post-meta'
import classes from './posts.module.css'
import '@mantine/core/styles/Divider.css'
import '@mantine/core/styles/Skeleton.css'

function BackToPosts() {
  const { t } = useTranslation()
  return (
    <Anchor component={Link} to={paths.posts} size="sm">
      <Group gap={4} component="span">
        <IconArrowLeft size={14} aria-hidden />
        {t('post.all')}
      </Group>
    </Anchor>
  )
}

/** One post in full: title, byline, tags, Markdown content; admins get an edit button. */
export function PostArticle({ post, admin }: { post: PostDetail; admin: boolean }) {
  const { t } = useTranslation()
  usePageTitle(post.title)
  return (
    <Stack component="article" gap="md" className={classes.article}>
      <BackToPosts />
      <Group justify="space-between" align="flex-start" gap="sm">
        <Stack gap={6} style={{ minWidth: 0, flex: '1 1 18rem' }}>
          {post.isPinned && (
            <div>
              <PinnedBadge />
            </div>
          )}
          <Title order={1} className={classes.title}>
            {post.title}
          </Title>
        </Stack>
        {admin && (
          <Button
            component={Link}
            to={paths.postEdit(post.id)}
            variant="light"
            leftSection={<IconPencil size={16} aria-hidden />}
          >
            {t('common.button.edit')}
          </Button>
        )}
      </Group>
      <PostByline post={post} />
      <PostTags tags={post.tags} />
      <Divider />
      <div className={classes.content}>
        <Markdown source={post.content || post.summary} />
      </div>
    </Stack>
  )
}

export function PostArticleSkeleton() {
  const { t } = useTranslation()
  return (
    <Stack gap="md" className={classes.article} aria-busy="true" aria-label={t('common.loading')}>
      <BackToPosts />
      <Skeleton height={34} width="60%" />
      <Skeleton height={16} width={220} />
      <Skeleton height={12} />
      <Skeleton height={12} />
      <Skeleton height={12} width="75%" />
    </Stack>
  )
}
