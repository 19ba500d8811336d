import '@/theme/styles'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { hydrateCache } from '@/api/cache'
import { App } from '@/app/app'
import { initI18n } from '@/i18n'

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

// Translations first; the saved cache gets a brief head start so pages paint from the last
// visit's data, but a slow disk never holds up the first paint for long.
await Promise.all([initI18n(), Promise.race([hydrateCache(), wait(150)])])

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
)
