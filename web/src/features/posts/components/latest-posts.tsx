import { Stack } from '@mantine/core'
import { useLatestPosts } from '../api'
import { LoadError, PostsEmpty, PostsLoading } from './list-states'
import { NewPostButton } from './new-post-button'
import { PostCard } from './post-card'

/** The home page's feed: the newest posts, pinned first. */
export function LatestPosts({ admin }: { admin: boolean }) {
  const { data, error, isLoading, mutate } = useLatestPosts()
  if (isLoading && !data) return <PostsLoading />
  if (error && !data) return <LoadError error={error} onRetry={() => mutate()} />
  if (!data?.length) return <PostsEmpty action={admin && <NewPostButton />} />
  return (
    <Stack gap="md">
      {data.map((post) => (
        <PostCard key={post.id} post={post} admin={admin} level={3} />
      ))}
    </Stack>
  )
}
