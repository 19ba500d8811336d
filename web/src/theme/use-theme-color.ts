import { useLocalStorage } from '@mantine/hooks'

/** The stored theme colour choice: '' (Managed), 'brand' (Default) or a hex (Custom). */
export function useStoredThemeColor() {
  return useLocalStorage<string>({ key: 'custom-theme', defaultValue: '', getInitialValueInEffect: false })
}
