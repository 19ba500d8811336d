import { useSWRConfig } from 'swr'
import { api, unwrap } from '@/api/client'
import { apiKey, ONCE, useApi, useRevalidate } from '@/api/hooks'
import type { Body, Ok } from '@/api/types'

export type PostInfo = Ok<'/api/posts/latest'>[number]
export type PostDetail = Ok<'/api/posts/{id}'>
export type PostEdit = Body<'/api/edit/posts', 'post'>

const POSTS = '/api/posts'

/** The home page's posts, pinned first: refreshed every 5 minutes (web-client §1.3). */
export function useLatestPosts() {
  return useApi('/api/posts/latest', undefined, { refreshInterval: 5 * 60_000 })
}

/** Every post, fetched once per visit (the list pages itself in the browser). */
export function usePosts() {
  return useApi('/api/posts', undefined, ONCE)
}

/** One post with its content; `null` waits. */
export function usePost(id: string | null) {
  return useApi(id ? '/api/posts/{id}' : null, id ? { path: { id } } : undefined, ONCE)
}

/** Admin changes to posts; each refreshes every cached post list and the post itself. */
export function usePostActions() {
  const revalidate = useRevalidate()
  const { mutate } = useSWRConfig()
  const refreshLists = () => revalidate(POSTS)
  const update = async (id: string, body: PostEdit): Promise<PostDetail> => {
    const post = await unwrap(api.PUT('/api/edit/posts/{id}', { params: { path: { id } }, body }))
    await mutate(apiKey('/api/posts/{id}', { path: { id } }), post, { revalidate: false })
    await refreshLists()
    return post
  }
  return {
    /** Publishes a post; answers its new id. */
    async create(body: PostEdit): Promise<string> {
      const id = await unwrap(api.POST('/api/edit/posts', { body }))
      await refreshLists()
      return id as string
    },
    update,
    async remove(id: string) {
      await unwrap(api.DELETE('/api/edit/posts/{id}', { params: { path: { id } } }))
      await mutate(apiKey('/api/posts/{id}', { path: { id } }), undefined, { revalidate: false })
      await refreshLists()
    },
    /**
     * Pins or unpins. The edit route takes the whole post, so its current text is read first and
     * sent back unchanged with only the pin flipped (the server then keeps its time and author).
     */
    async togglePin(post: PostInfo): Promise<PostDetail> {
      const id = post.id
      const current = await unwrap(
        api.GET('/api/posts/{id}', { params: { path: { id } }, cache: 'no-cache' }),
      )
      return update(id, {
        title: current.title,
        summary: current.summary,
        content: current.content,
        tags: current.tags,
        isPinned: !current.isPinned,
      })
    },
  }
}
