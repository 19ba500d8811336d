import { usePageTitle } from '@/features/info/use-page-title'
import { TeamsView } from '@/features/team/components/teams-view'
import { useTranslation } from '@/i18n'
import { RequireRole } from '@/pages/guards'

/** `/teams`: my teams (signed-in users; anonymous visitors go to the login page). */
export default function TeamsPage() {
  const { t } = useTranslation()
  usePageTitle(t('team.title'))
  return (
    <RequireRole min="User">
      <TeamsView />
    </RequireRole>
  )
}
