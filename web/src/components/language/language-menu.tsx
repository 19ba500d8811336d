import { Menu, Text } from '@mantine/core'
import { FRAME_MENU } from '@/components/frame-menu'
import { useTranslation } from '@/i18n'
import { isMachineTranslated, LANGUAGES } from '@/i18n/languages'
import { LanguageButton } from './language-button'
import { useLanguageChoice } from './use-language-choice'

/** The language menu of the navigation, loaded after the frame's first render (lazy-menu.tsx). */
export default function LanguageMenu({ defaultOpened }: { defaultOpened?: boolean }) {
  const { t } = useTranslation()
  const { language, choose, dialog } = useLanguageChoice()
  return (
    <>
      <Menu {...FRAME_MENU} defaultOpened={defaultOpened}>
        <Menu.Target>
          <LanguageButton />
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Label>{t('common.language.label')}</Menu.Label>
          {LANGUAGES.map((l) => (
            <Menu.Item
              key={l.code}
              lang={l.code}
              onClick={() => choose(l.code)}
              aria-current={l.code === language ? 'true' : undefined}
              fw={l.code === language ? 700 : undefined}
              rightSection={
                isMachineTranslated(l.code) && (
                  <Text size="xs" c="dimmed" ms="md" data-mt-mark>
                    {t('common.language.mt_mark')}
                  </Text>
                )
              }
            >
              {l.name}
            </Menu.Item>
          ))}
        </Menu.Dropdown>
      </Menu>
      {dialog}
    </>
  )
}
