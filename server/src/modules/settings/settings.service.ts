import type { Db } from '../../db/index.ts'
import { configs } from '../../db/schema.ts'
import type { Bus } from '../../infra/bus/index.ts'
import {
  type AccountPolicy,
  type ContainerPolicy,
  defaults,
  type ExtensionName,
  type Extensions,
  type GlobalConfig,
} from './settings.schemas.ts'

export interface Settings {
  accountPolicy: AccountPolicy
  globalConfig: GlobalConfig
  containerPolicy: ContainerPolicy
  /** Our additions' switches (`/api/ext/features`). */
  extensions: Extensions
}
export type SectionName = keyof Settings

/**
 * Admin-editable runtime settings, one JSON document per section in `configs`.
 * Read from memory; reloaded after every save, when another server says it saved (the bus), and
 * every `refreshMs` in case such a message was lost.
 */
export function createSettingsService(deps: { db: Db; refreshMs?: number; bus?: Bus }) {
  let current: Settings = structuredClone(defaults)
  const startedAt = new Date()
  let changedAt = startedAt

  async function reload(): Promise<void> {
    const rows = await deps.db.select().from(configs)
    const next: Settings = structuredClone(defaults)
    let latest = startedAt
    for (const row of rows) {
      if (row.key in next) {
        const key = row.key as SectionName
        next[key] = { ...defaults[key], ...(row.value as object) } as never
      }
      if (row.updatedAt > latest) latest = row.updatedAt
    }
    current = next
    changedAt = latest
  }

  const timer = setInterval(() => reload().catch(() => {}), deps.refreshMs ?? 300_000)
  timer.unref()
  // Another server saved: read the settings again now rather than at the next refresh.
  const unsubscribe = deps.bus?.subscribe('settings.changed', () => void reload().catch(() => {}))

  return {
    reload,
    get: (): Readonly<Settings> => current,
    /** Whether an admin turned one of our additions on. */
    isOn: (feature: ExtensionName): boolean => current.extensions[feature],
    /** When any section last changed: the base of the client-config ETag. */
    changedAt: () => changedAt,
    /** Replaces a whole section (fields left out take their defaults), as `PUT /api/admin/config` does. */
    async save<K extends SectionName>(section: K, value: Partial<Settings[K]>): Promise<void> {
      const full = { ...defaults[section], ...value }
      const now = new Date()
      await deps.db
        .insert(configs)
        .values({ key: section, value: full, updatedAt: now })
        .onConflictDoUpdate({ target: configs.key, set: { value: full, updatedAt: now } })
      await reload()
      deps.bus?.publish('settings.changed', {})
    },
    close: () => {
      clearInterval(timer)
      unsubscribe?.()
    },
  }
}
export type SettingsService = ReturnType<typeof createSettingsService>
