import { FileList } from '@/features/admin/components/records/file-list'
import { usePageTitle } from '@/features/info/use-page-title'
import { useTranslation } from '@/i18n'

/** `/admin/files`: every stored file, with download links and deletion. */
export default function AdminFilesPage() {
  const { t } = useTranslation()
  usePageTitle(t('admin.files.title'))
  return <FileList />
}
