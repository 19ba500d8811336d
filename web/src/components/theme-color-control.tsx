import { ActionIcon } from '@mantine/core'
import { IconPalette } from '@tabler/icons-react'
import { lazy, Suspense, useState } from 'react'
import { useTranslation } from '@/i18n'

const ThemeColorDialog = lazy(() => import('./theme-color-dialog'))

/** Opens the theme colour dialog (loaded on first use). */
export function ThemeColorControl() {
  const { t } = useTranslation()
  const [open, setOpen] = useState(false)
  return (
    <>
      <ActionIcon
        variant="subtle"
        color="gray"
        size="lg"
        aria-label={t('common.theme.color')}
        title={t('common.theme.color')}
        onClick={() => setOpen(true)}
      >
        <IconPalette size={20} aria-hidden />
      </ActionIcon>
      {open && (
        <Suspense fallback={null}>
          <ThemeColorDialog onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  )
}
