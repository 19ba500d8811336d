import { ActionIcon, Menu, Text } from '@mantine/core'
import { IconLanguage } from '@tabler/icons-react'
import { useTranslation } from '@/i18n'
import { isMachineTranslated, LANGUAGES } from '@/i18n/languages'
import { useLanguageChoice } from './use-language-choice'

/** The language menu of the navigation. */
export function LanguageMenu() {
  const { t } = useTranslation()
  const { language, choose, dialog } = useLanguageChoice()
  return (
    <>
      <Menu position="right-end" withinPortal shadow="md">
        <Menu.Target>
          <ActionIcon
            variant="subtle"
            color="gray"
            size="lg"
            aria-label={t('common.language.label')}
            title={t('common.language.label')}
          >
            <IconLanguage size={20} aria-hidden />
          </ActionIcon>
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
