import { AboutView } from '@/features/about/components/about-view'
import { usePageTitle } from '@/features/info/use-page-title'
import { useTranslation } from '@/i18n'

// Absent when the bundle was built without vite.config.ts (e.g. a test runner).
const build = typeof __BUILD_INFO__ === 'undefined' ? undefined : __BUILD_INFO__

export default function AboutPage() {
  const { t } = useTranslation()
  usePageTitle(t('common.nav.about'))
  return <AboutView build={build} />
}
