import { UserList } from '@/features/admin/components/people/user-list'
import { usePageTitle } from '@/features/info/use-page-title'
import { useTranslation } from '@/i18n'

/** `/admin/users`: every account, searchable, with editing and batch creation. */
export default function AdminUsersPage() {
  const { t } = useTranslation()
  usePageTitle(t('admin.users.title'))
  return <UserList />
}
