import { Group, Pagination } from '@mantine/core'
import { useTranslation } from '@/i18n'
import '@mantine/core/styles/Pagination.css'

/** Page numbers under a list paged on the server; nothing when everything fits on one page. */
export function ListPager({
  page,
  pages,
  onChange,
  label,
}: {
  page: number
  pages: number
  onChange: (page: number) => void
  label: string
}) {
  const { t } = useTranslation()
  if (pages <= 1) return null
  return (
    <Group justify="center" component="nav" aria-label={label}>
      <Pagination
        total={pages}
        value={Math.min(page, pages)}
        onChange={onChange}
        siblings={1}
        boundaries={1}
        size="sm"
        getControlProps={(control) => ({ 'aria-label': t(`admin.pagination.${control}`) })}
        getItemProps={(n) => ({ 'aria-label': t('admin.pagination.page', { page: n }) })}
      />
    </Group>
  )
}
