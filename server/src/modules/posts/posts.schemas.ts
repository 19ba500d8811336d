import { Type } from 'typebox'
import { Nullable, RequiredString } from '../../http/schema.ts'

const postFields = {
  /** Eight lowercase hex characters. */
  id: Type.String(),
  title: Type.String(),
  summary: Type.String(),
  isPinned: Type.Boolean(),
  tags: Nullable(Type.Array(Type.String())),
  authorAvatar: Nullable(Type.String()),
  authorName: Nullable(Type.String()),
  /** Last update, epoch milliseconds. */
  time: Type.Integer(),
}
export const PostInfoModel = Type.Object(postFields)
export const PostDetailModel = Type.Object({ ...postFields, content: Type.String() })

export const PostEditModel = Type.Object({
  title: RequiredString({ maxLength: 50 }),
  summary: Type.Optional(Type.String({ maxLength: 4096 })),
  content: Type.Optional(Type.String({ maxLength: 65536 })),
  tags: Type.Optional(Nullable(Type.Array(Type.String({ maxLength: 32 }), { maxItems: 16 }))),
  isPinned: Type.Optional(Type.Boolean()),
})
