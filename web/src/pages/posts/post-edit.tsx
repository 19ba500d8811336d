import { useParams } from 'react-router'
import { usePageTitle } from '@/features/info/use-page-title'
import { usePost } from '@/features/posts/api'
import { LoadError } from '@/features/posts/components/list-states'
import { PostArticleSkeleton } from '@/features/posts/components/post-article'
import { PostEditor } from '@/features/posts/components/post-editor'
import { draftOf, emptyDraft, isPostId } from '@/features/posts/post-form'
import { useTranslation } from '@/i18n'
import { RequireRole } from '@/pages/guards'
import NotFound from '@/pages/not-found'

function EditExisting({ id }: { id: string }) {
  const { data, error, isLoading, mutate } = usePost(id)
  if (error?.httpStatus === 404) return <NotFound />
  if (isLoading && !data) return <PostArticleSkeleton />
  if (error && !data) return <LoadError error={error} onRetry={() => mutate()} />
  if (!data) return null
  return <PostEditor key={id} id={id} initial={draftOf(data)} />
}

/** `/posts/new/edit` writes a post; `/posts/{id}/edit` changes one. Admins only. */
export default function PostEditPage() {
  const { t } = useTranslation()
  const { postId } = useParams()
  usePageTitle(t(postId === 'new' ? 'post.edit.new_title' : 'post.edit.title'))
  const isNew = postId?.toLowerCase() === 'new'
  if (!isNew && !isPostId(postId)) return <NotFound />
  return (
    <RequireRole min="Admin">
      {isNew ? (
        <PostEditor key="new" id={null} initial={emptyDraft()} />
      ) : (
        <EditExisting id={postId!.toLowerCase()} />
      )}
    </RequireRole>
  )
}
