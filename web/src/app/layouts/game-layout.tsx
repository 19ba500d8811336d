import { Outlet } from 'react-router'

/** The game area's frame (tabs, countdown): filled in with the playing screens. */
export default function GameLayout() {
  return <Outlet />
}
