import { Button } from '@mantine/core'
import { IconPlus } from '@tabler/icons-react'
import { Link } from 'react-router'
import { paths } from '@/features/paths'
import { useTranslation } from '@/i18n'

/** The admin's way to write a post (opens the editor on a new one). */
export function NewPostButton() {
  const { t } = useTranslation()
  return (
    <Button component={Link} to={paths.postEdit('new')} leftSection={<IconPlus size={16} aria-hidden />}>
      {t('post.new')}
    </Button>
  )
}
