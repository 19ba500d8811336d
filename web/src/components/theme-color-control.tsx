import { IconPalette } from '@tabler/icons-react'
import { lazy, Suspense, useState } from 'react'
import { useTranslation } from '@/i18n'
import { FrameIconButton } from './frame-icon-button'

const ThemeColorDialog = lazy(() => import('./theme-color-dialog'))

/** Opens the theme colour dialog (loaded on first use). */
export function ThemeColorControl() {
  const { t } = useTranslation()
  const [open, setOpen] = useState(false)
  return (
    <>
      <FrameIconButton label={t('common.theme.color')} icon={IconPalette} onClick={() => setOpen(true)} />
      {open && (
        <Suspense fallback={null}>
          <ThemeColorDialog onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  )
}
