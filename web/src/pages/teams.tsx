import { RequireRole } from '@/app/guards'
import { TeamsView } from '@/features/team/components/teams-view'
import { usePageTitle } from '@/hooks/use-page-title'
import { useTranslation } from '@/i18n'

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
