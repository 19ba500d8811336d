import { Outlet } from 'react-router'
import { RequireRole } from '@/app/guards'

/** The administration area: admins only. The tab strip arrives with the admin screens. */
export default function AdminLayout() {
  return (
    <RequireRole min="Admin">
      <Outlet />
    </RequireRole>
  )
}
