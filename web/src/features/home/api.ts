import { useApi } from '@/api/hooks'
import type { Ok } from '@/api/types'

export type RecentGame = Ok<'/api/game/recent'>[number]

/** Games nearest in time, for the home page: refreshed every 30 minutes (web-client §1.3). */
export function useRecentGames(limit = 6) {
  return useApi('/api/game/recent', { query: { limit } }, { refreshInterval: 30 * 60_000 })
}
