import type { Section, SettingsForm } from '../../settings-form'

/** What each settings section gets from the editor: its values, a setter and its errors. */
export interface SectionProps<S extends Section> {
  value: SettingsForm[S]
  set: <K extends keyof SettingsForm[S]>(key: K, value: SettingsForm[S][K]) => void
  /** The field's message, translated; undefined when it is fine. */
  error: (key: keyof SettingsForm[S]) => string | undefined
}
