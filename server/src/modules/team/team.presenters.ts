import type { teams } from '../../db/schema.ts'
import { avatarUrl } from '../posts/posts.service.ts'

/** The fields every team model starts with (`TeamInfoModel` without members). */
export const teamHead = (team: typeof teams.$inferSelect) => ({
  id: team.id,
  name: team.name,
  bio: team.bio,
  avatar: avatarUrl(team.avatarHash),
  locked: team.locked,
})
