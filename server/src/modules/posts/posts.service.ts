import { randomBytes } from 'node:crypto'
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

export interface PostInput {
  title: string
  summary?: string
  content?: string
  tags?: string[] | null
  isPinned?: boolean
}

const clean = (input: PostInput) => ({
  title: input.title.trim(),
  summary: input.summary ?? '',
  content: input.content ?? '',
  tags: [...new Set((input.tags ?? []).map((t) => t.trim()).filter(Boolean))],
  isPinned: input.isPinned ?? false,
})

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

    /** Creates a post by `authorId`; returns its id (8 hex characters). */
    async create(authorId: string, input: PostInput): Promise<string> {
      for (;;) {
        const id = randomBytes(4).toString('hex')
        const [row] = await db
          .insert(posts)
          .values({ id, ...clean(input), authorId, updateTimeUtc: new Date() })
          .onConflictDoNothing()
          .returning({ id: posts.id })
        if (row) return row.id
      }
    },

    /**
     * Replaces a post's text and tags, or only flips its pin when that is what changed. Unlike
     * upstream, a pin change keeps whatever else was sent too (decisions.md item 7).
     */
    async update(authorId: string, id: string, input: PostInput) {
      const [current] = await db.select().from(posts).where(eq(posts.id, id.toLowerCase()))
      if (!current) throw fail('Post_NotFound')
      const next = clean(input)
      // Pinning alone does not count as an edit: the post keeps its time and author.
      const pinOnly =
        next.isPinned !== current.isPinned &&
        next.title === current.title &&
        next.summary === current.summary &&
        next.content === current.content &&
        JSON.stringify(next.tags) === JSON.stringify(current.tags)
      await db
        .update(posts)
        .set(pinOnly ? { isPinned: next.isPinned } : { ...next, authorId, updateTimeUtc: new Date() })
        .where(eq(posts.id, current.id))
      return this.get(current.id)
    },

    async remove(id: string): Promise<void> {
      const rows = await db.delete(posts).where(eq(posts.id, id.toLowerCase())).returning({ id: posts.id })
      if (!rows.length) throw fail('Post_NotFound')
    },

    async ensureWelcome(): Promise<void> {
      const [any] = await db.select({ id: posts.id }).from(posts).limit(1)
      if (any) return
      // Signed by the first administrator, so the post does not read "unknown author".
      const [admin] = await db.select({ id: users.id }).from(users).where(eq(users.role, 3)).limit(1)
      await db
        .insert(posts)
        .values({
          id: crypto.randomUUID().slice(0, 8),
          ...WELCOME,
          authorId: admin?.id ?? null,
          updateTimeUtc: new Date(),
        })
        .onConflictDoNothing()
    },
  }
}
export type PostService = ReturnType<typeof createPostService>
