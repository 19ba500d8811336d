import { TeamList } from '@/features/admin/components/people/team-list'
import { usePageTitle } from '@/features/info/use-page-title'
import { useTranslation } from '@/i18n'

/** `/admin/teams`: every team with its members, searchable; lock, edit, delete. */
export default function AdminTeamsPage() {
  const { t } = useTranslation()
  usePageTitle(t('admin.teams.title'))
  return <TeamList />
}
