import { Outlet } from 'react-router'

/** One game's editing tabs (info, notices, challenges, review, writeups). */
export default function AdminGameLayout() {
  return <Outlet />
}
