import { lazy, Suspense, useState } from 'react'
import { changeLanguage, useTranslation } from '@/i18n'
import { DEFAULT_LANGUAGE, isMachineTranslated, LANGUAGES, type Language } from '@/i18n/languages'

const MtConfirmDialog = lazy(() => import('./mt-confirm-dialog'))

/**
 * Choosing a language: immediate for reviewed translations; a machine-translated one first
 * asks (seed section 2). Returns the chooser and the dialog to render.
 */
export function useLanguageChoice() {
  const { language } = useTranslation()
  const [asking, setAsking] = useState<Language | null>(null)

  const choose = (code: Language) => {
    if (code === language) return
    if (isMachineTranslated(code)) setAsking(code)
    else void changeLanguage(code)
  }

  const finish = (code: Language | null) => {
    setAsking(null)
    if (code) void changeLanguage(code)
  }

  const dialog = asking && (
    <Suspense fallback={null}>
      <MtConfirmDialog
        name={LANGUAGES.find((l) => l.code === asking)?.name ?? asking}
        onConfirm={() => finish(asking)}
        onEnglish={() => finish(DEFAULT_LANGUAGE)}
        onClose={() => finish(null)}
      />
    </Suspense>
  )
  return { language, choose, dialog }
}
