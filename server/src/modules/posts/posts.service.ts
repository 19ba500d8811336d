import { desc, eq } from 'drizzle-orm'
import type { Db } from '../../db/index.ts'
import { posts, users } from '../../db/schema.ts'
import { fail } from '../../http/errors.ts'

const columns = {
  id: posts.id,
  title: posts.title,
  summary: posts.summary,
  content: posts.content,
  isPinned: posts.isPinned,
  tags: posts.tags,
  time: posts.updateTimeUtc,
  authorName: users.userName,
  authorAvatarHash: users.avatarHash,
}

export const avatarUrl = (hash: string | null | undefined) => (hash ? `/assets/${hash}/avatar` : null)

function present<R extends { time: Date; authorAvatarHash: string | null }>(row: R) {
  const { authorAvatarHash, time, ...rest } = row
  return { ...rest, authorAvatar: avatarUrl(authorAvatarHash), time: time.getTime() }
}

const WELCOME = {
  title: 'Welcome to Pennant',
  summary: 'Your contest platform is up and running.',
  content: [
    'Pennant is ready. Sign in as the **Admin** account printed at first start-up, then:',
    '',
    '1. Review the account settings (registration, e-mail confirmation, captcha).',
    '2. Create a game and its challenges.',
    '3. Replace this post with your own announcement.',
  ].join('\n'),
}

/** Announcements on the home page (read side; editing comes with the edit API). */
export function createPostService(deps: { db: Db }) {
  const { db } = deps
  const base = () =>
    db
      .select(columns)
      .from(posts)
      .leftJoin(users, eq(users.id, posts.authorId))
      .orderBy(desc(posts.isPinned), desc(posts.updateTimeUtc))

  return {
    /** Every post: pinned first, then the most recently updated. */
    async list() {
      const rows = await base()
      return rows.map(({ content: _, ...row }) => present(row))
    },

    async get(id: string) {
      const [row] = await db
        .select(columns)
        .from(posts)
        .leftJoin(users, eq(users.id, posts.authorId))
        .where(eq(posts.id, id.toLowerCase()))
      if (!row) throw fail('Post_NotFound')
      return present(row)
    },

    async ensureWelcome(): Promise<void> {
      const [any] = await db.select({ id: posts.id }).from(posts).limit(1)
      if (any) return
      await db
        .insert(posts)
        .values({ id: crypto.randomUUID().slice(0, 8), ...WELCOME, updateTimeUtc: new Date() })
        .onConflictDoNothing()
    },
  }
}
export type PostService = ReturnType<typeof createPostService>
