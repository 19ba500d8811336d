import { Center, Group, Pagination, Stack } from '@mantine/core'
import { useSearchParams } from 'react-router'
import { useTranslation } from '@/i18n'
import { usePosts } from '../api'
import { pageOf } from '../post-form'
import { LoadError, PostsEmpty, PostsLoading } from './list-states'
import { PostCard } from './post-card'
import '@mantine/core/styles/Pagination.css'
import { NewPostButton } from './new-post-button'

const PAGE_SIZE = 10

/** Every post, 10 to a page; the page number lives in the address (`?page=2`) so it can be shared. */
export function PostList({ admin }: { admin: boolean }) {
  const { t } = useTranslation()
  const [search, setSearch] = useSearchParams()
  const { data, error, isLoading, mutate } = usePosts()

  if (isLoading && !data) return <PostsLoading />
  if (error && !data) return <LoadError error={error} onRetry={() => mutate()} />
  if (!data?.length) return <PostsEmpty action={admin && <NewPostButton />} />

  const { items, page, pages } = pageOf(data, Number(search.get('page') ?? 1), PAGE_SIZE)
  const go = (next: number) => {
    setSearch(next === 1 ? {} : { page: String(next) })
    window.scrollTo({ top: 0 })
  }

  return (
    <Stack gap="md">
      {items.map((post) => (
        <PostCard key={post.id} post={post} admin={admin} level={2} />
      ))}
      {pages > 1 && (
        <Center component="nav" aria-label={t('post.pages')} mt="sm">
          <Pagination
            total={pages}
            value={page}
            onChange={go}
            siblings={1}
            getItemProps={(n) => ({
              'aria-label': t('post.page', { page: n }),
              'aria-current': n === page ? 'page' : undefined,
            })}
            getControlProps={(control) => ({ 'aria-label': t(`post.page_${control}`) })}
          />
        </Center>
      )}
      <Group justify="center" c="dimmed" fz="sm">
        {t('post.count', { count: data.length })}
      </Group>
    </Stack>
  )
}
