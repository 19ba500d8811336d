import { DirectionProvider, MantineProvider } from '@mantine/core'
import { memo, type ReactNode, useEffect, useMemo } from 'react'
import { BrowserRouter } from 'react-router'
import { SWRConfig } from 'swr'
import { cacheProvider } from '@/api/cache'
import { fetchUrl, markFirstPaint } from '@/api/hooks'
import { ConfirmHost } from '@/components/confirm'
import { useConfig } from '@/features/info/api'
import { useTranslation } from '@/i18n'
import { resolvePrimary } from '@/theme/colors'
import { cssVariablesResolver } from '@/theme/css-variables'
import { buildTheme } from '@/theme/theme'
import { useStoredThemeColor } from '@/theme/use-theme-color'
import { ErrorBoundary } from './error-screen'
import { LazyToasts } from './lazy-toasts'
import { AppRoutes } from './router'

/** Data fetching constants of the seed (section 9). */
const slow = (() => {
  const type = (navigator as { connection?: { effectiveType?: string } }).connection?.effectiveType
  return type === 'slow-2g' || type === '2g' || type === '3g'
})()

const swrOptions = {
  provider: cacheProvider,
  fetcher: fetchUrl,
  refreshInterval: 10_000,
  dedupingInterval: 2_000,
  focusThrottleInterval: 5_000,
  errorRetryInterval: slow ? 10_000 : 5_000,
  loadingTimeout: slow ? 5_000 : 3_000,
}

/**
 * Mantine's provider recomputes and rewrites every theme CSS variable (our contrast fixes
 * included) each time it renders; memoised, it renders again only when the theme changes, not
 * whenever the config, the stored colour or a translation area arrives.
 */
const StableMantineProvider = memo(MantineProvider)

/** Mantine with the primary colour from the user's choice or the platform's config. */
function ThemedMantine({ children }: { children: ReactNode }) {
  const { config } = useConfig()
  const [stored] = useStoredThemeColor()
  const primary = resolvePrimary(stored, config?.customTheme)
  const { language } = useTranslation()
  // biome-ignore lint/correctness/useExhaustiveDependencies: labels in the theme follow the language
  const theme = useMemo(() => buildTheme(primary), [primary, language])
  return (
    <StableMantineProvider
      theme={theme}
      defaultColorScheme="dark"
      cssVariablesResolver={cssVariablesResolver}
    >
      {children}
    </StableMantineProvider>
  )
}

export function App() {
  // The first commit holds the whole first screen (main.tsx waits for its code and data).
  useEffect(markFirstPaint, [])
  return (
    <SWRConfig value={swrOptions}>
      {/* Follows `<html dir>`, which the i18n module sets with the language (RTL pseudo-locale). */}
      <DirectionProvider>
        <ThemedMantine>
          <ErrorBoundary>
            <LazyToasts />
            <ConfirmHost />
            <BrowserRouter>
              <AppRoutes />
            </BrowserRouter>
          </ErrorBoundary>
        </ThemedMantine>
      </DirectionProvider>
    </SWRConfig>
  )
}
