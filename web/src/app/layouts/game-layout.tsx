import { Suspense } from 'react'
import { Outlet, useLocation, useParams } from 'react-router'
import { PageLoader } from '@/components/page-loader'
import { GameArea, tabOf } from '@/features/game/components/game-area'
import { MonitorNav } from '@/features/game/monitor/monitor-nav'
import { RequireRole } from '@/pages/guards'

/** The game area's frame (title, countdown, tabs and their guard); monitoring needs Monitor+. */
export default function GameLayout() {
  const { id } = useParams()
  const { pathname } = useLocation()
  const gameId = Number(id)
  const page = (
    <Suspense fallback={<PageLoader />}>
      <Outlet />
    </Suspense>
  )
  return (
    <GameArea id={gameId}>
      {tabOf(pathname) === 'monitor' ? (
        <RequireRole min="Monitor">
          <MonitorNav id={gameId} />
          {page}
        </RequireRole>
      ) : (
        page
      )}
    </GameArea>
  )
}
