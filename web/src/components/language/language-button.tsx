import { ActionIcon, type ActionIconProps } from '@mantine/core'
import { IconLanguage } from '@tabler/icons-react'
import type { ComponentProps } from 'react'
import { useTranslation } from '@/i18n'

/** The language menu's button (language-menu.tsx), shown alone until the menu's code has loaded. */
export function LanguageButton(props: ActionIconProps & ComponentProps<'button'>) {
  const { t } = useTranslation()
  return (
    <ActionIcon
      variant="subtle"
      color="gray"
      size="lg"
      aria-label={t('common.language.label')}
      title={t('common.language.label')}
      {...props}
    >
      <IconLanguage size={20} aria-hidden />
    </ActionIcon>
  )
}
