import { LogList } from '@/features/admin/components/records/log-list'
import { usePageTitle } from '@/features/info/use-page-title'
import { useTranslation } from '@/i18n'

/** `/admin/logs`: the platform log by level, newest first. */
export default function AdminLogsPage() {
  const { t } = useTranslation()
  usePageTitle(t('admin.logs.title'))
  return <LogList />
}
