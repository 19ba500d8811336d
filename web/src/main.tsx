import '@/theme/styles'
import { StrictMode, startTransition } from 'react'
import { createRoot } from 'react-dom/client'
import { hydrateCache, primeCache } from '@/api/cache'
import { arrivedPrefetches, prefetch } from '@/api/hooks'
import { App } from '@/app/app'
import { START_DATA } from '@/app/early-data'
import { preloadRoute } from '@/app/router'
import { initI18n } from '@/i18n'

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

// Translations first; the saved cache gets a brief head start so pages paint from the last
// visit's data, but a slow disk never holds up the first paint for long. Meanwhile the page's
// code, strings and first data are already on their way (the strings choose the language first).
// The first render also waits a little for the page's code and first data, all fetched at once:
// then the frame and the page render in one pass with their content, rather than a loader or
// placeholders first and the page again on arrival. Data gets a moment past the code, no more.
const strings = initI18n()
prefetch(START_DATA)
const pageCode = Promise.race([preloadRoute(location.pathname), wait(1500)])
const [, , , firstData] = await Promise.all([
  strings,
  Promise.race([hydrateCache(), wait(150)]),
  pageCode,
  arrivedPrefetches(pageCode.then(() => wait(250))),
])
// After the saved cache, so this visit's answers win over the last visit's.
for (const [url, data] of firstData) primeCache(url, data)

// As a transition, the first render yields to the browser every few milliseconds instead of
// holding a slow phone's main thread for the whole app at once (input stays responsive).
const root = createRoot(document.getElementById('root')!)
startTransition(() =>
  root.render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
)
