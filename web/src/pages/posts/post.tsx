import { useParams } from 'react-router'
import { hasRole, useUser } from '@/features/account/api'
import { usePost } from '@/features/posts/api'
import { LoadError } from '@/features/posts/components/list-states'
import { PostArticle, PostArticleSkeleton } from '@/features/posts/components/post-article'
import { isPostId } from '@/features/posts/post-form'
import NotFound from '@/pages/not-found'

export default function PostPage() {
  const { postId } = useParams()
  const valid = isPostId(postId)
  const { user } = useUser()
  const { data, error, isLoading, mutate } = usePost(valid ? postId.toLowerCase() : null)
  if (!valid || error?.httpStatus === 404) return <NotFound />
  if (isLoading && !data) return <PostArticleSkeleton />
  if (error && !data) return <LoadError error={error} onRetry={() => mutate()} />
  if (!data) return null
  return <PostArticle post={data} admin={hasRole(user?.role, 'Admin')} />
}
