import type { ActionIconProps } from '@mantine/core'
import { IconLanguage } from '@tabler/icons-react'
import type { ComponentProps } from 'react'
import { useTranslation } from '@/i18n'
import { FrameIconButton } from '../frame-icon-button'

/** The language menu's button (language-menu.tsx), shown alone until the menu's code has loaded. */
export function LanguageButton(props: ActionIconProps & Omit<ComponentProps<'button'>, 'color'>) {
  const { t } = useTranslation()
  return <FrameIconButton label={t('common.language.label')} icon={IconLanguage} {...props} />
}
