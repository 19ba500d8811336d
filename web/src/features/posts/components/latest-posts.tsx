import { Button, Stack } from '@mantine/core'
import { IconPlus } from '@tabler/icons-react'
import { Link } from 'react-router'
import { paths } from '@/app/paths'
import { useTranslation } from '@/i18n'
import { useLatestPosts } from '../api'
import { LoadError, PostsEmpty, PostsLoading } from './list-states'
import { PostCard } from './post-card'

/** The home page's feed: the newest posts, pinned first. */
export function LatestPosts({ admin }: { admin: boolean }) {
  const { t } = useTranslation()
  const { data, error, isLoading, mutate } = useLatestPosts()
  if (isLoading && !data) return <PostsLoading />
  if (error && !data) return <LoadError error={error} onRetry={() => mutate()} />
  if (!data?.length)
    return (
      <PostsEmpty
        action={
          admin && (
            <Button
              component={Link}
              to={paths.postEdit('new')}
              leftSection={<IconPlus size={16} aria-hidden />}
            >
              {t('post.new')}
            </Button>
          )
        }
      />
    )
  return (
    <Stack gap="md">
      {data.map((post) => (
        <PostCard key={post.id} post={post} admin={admin} level={3} />
      ))}
    </Stack>
  )
}
