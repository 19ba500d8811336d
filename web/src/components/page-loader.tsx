import { Center, Loader } from '@mantine/core'
import { useTranslation } from '@/i18n'

/** Shown while a page's chunk loads. */
export function PageLoader() {
  const { t } = useTranslation()
  return (
    <Center mih="40vh">
      <Loader type="dots" aria-label={t('common.loading')} />
    </Center>
  )
}
