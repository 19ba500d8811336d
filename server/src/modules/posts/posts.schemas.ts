import { Type } from 'typebox'
import { Nullable } from '../../http/schema.ts'

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
