import { Input } from '@mantine/core'
import { IconLanguage, IconSelector } from '@tabler/icons-react'
import { useTranslation } from '@/i18n'
import { isMachineTranslated, LANGUAGES, type Language } from '@/i18n/languages'
import { useLanguageChoice } from './use-language-choice'

/** A native language select: light enough for the account pages, and the phone's own picker. */
export function LanguageSelect() {
  const { t } = useTranslation()
  const { language, choose, dialog } = useLanguageChoice()
  return (
    <>
      <Input
        component="select"
        aria-label={t('common.language.label')}
        size="xs"
        leftSection={<IconLanguage size={16} aria-hidden />}
        rightSection={<IconSelector size={14} aria-hidden />}
        rightSectionPointerEvents="none"
        value={language}
        onChange={(e: React.ChangeEvent<HTMLSelectElement>) => choose(e.currentTarget.value as Language)}
      >
        {LANGUAGES.map((l) => (
          <option key={l.code} value={l.code} lang={l.code}>
            {isMachineTranslated(l.code) ? `${l.name} (${t('common.language.mt_mark')})` : l.name}
          </option>
        ))}
      </Input>
      {dialog}
    </>
  )
}
