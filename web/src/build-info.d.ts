import type { BuildInfo } from './utils/build-info'

declare global {
  /** Stamped by vite.config.ts at build time (`define`). */
  const __BUILD_INFO__: BuildInfo
}
