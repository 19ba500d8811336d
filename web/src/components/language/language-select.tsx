import { NativeSelect } from '@mantine/core'
import { IconLanguage } from '@tabler/icons-react'
import { useTranslation } from '@/i18n'
import { LANGUAGES, type Language } from '@/i18n/languages'
import { useLanguageChoice } from './use-language-choice'

/** A native language select: light enough for the account pages, and the phone's own picker. */
export function LanguageSelect() {
  const { t } = useTranslation()
  const { language, choose, dialog } = useLanguageChoice()
  return (
    <>
      <NativeSelect
        aria-label={t('common.language.label')}
        size="xs"
        leftSection={<IconLanguage size={16} aria-hidden />}
        value={language}
        onChange={(e) => choose(e.currentTarget.value as Language)}
        data={LANGUAGES.map((l) => ({ value: l.code, label: l.name }))}
      />
      {dialog}
    </>
  )
}
