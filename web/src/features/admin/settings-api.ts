import { api, unwrap } from '@/api/client'
import { ONCE, useApi, useRevalidate } from '@/api/hooks'
import type { ConfigUpdate } from './settings-form'

const ADMIN_CONFIG = '/api/admin/config'
/** The platform logo (api-contract §2.2): multipart `file` to upload, DELETE to go back to Pennant's. */
export const LOGO_URL = '/api/admin/config/logo'
/** Public views of the settings: title, colour, logo (client config) and the captcha choice. */
const PUBLIC = ['/api/config', '/api/captcha']

/**
 * The settings as stored. Fetched once and not on focus either: the form starts from it, and a
 * refetch under the admin's edits would only confuse (another admin's save shows on the next visit).
 */
export function useAdminConfig() {
  return useApi(ADMIN_CONFIG, undefined, ONCE)
}

/** Saving settings and the logo; each refreshes the public config so the frame shows the change. */
export function useSettingsActions() {
  const revalidate = useRevalidate()
  return {
    /** Replaces the sections given (see `toUpdate`). */
    async save(body: ConfigUpdate) {
      await unwrap(api.PUT('/api/admin/config', { body }))
      await revalidate(...PUBLIC)
    },
    /** After an upload through `LOGO_URL`. */
    logoChanged: () => revalidate('/api/config', ADMIN_CONFIG),
    async removeLogo() {
      await unwrap(api.DELETE(LOGO_URL))
      await revalidate('/api/config', ADMIN_CONFIG)
    },
  }
}
