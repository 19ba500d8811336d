import { useComputedColorScheme, useMantineColorScheme } from '@mantine/core'
import { IconMoon, IconSun } from '@tabler/icons-react'
import { useTranslation } from '@/i18n'
import { FrameIconButton } from './frame-icon-button'
/** Dark / light switch (dark is the default). No tooltip: it also sits on the light account pages. */
export function ColorSchemeToggle() {
  const { t } = useTranslation()
  const { setColorScheme } = useMantineColorScheme()
  const scheme = useComputedColorScheme('dark')
  const label = scheme === 'dark' ? t('common.theme.toggle_light') : t('common.theme.toggle_dark')
  return (
    <FrameIconButton
      label={label}
      icon={scheme === 'dark' ? IconSun : IconMoon}
      onClick={() => setColorScheme(scheme === 'dark' ? 'light' : 'dark')}
    />
  )
}
