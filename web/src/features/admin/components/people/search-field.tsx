import { ActionIcon, TextInput } from '@mantine/core'
import { IconSearch, IconX } from '@tabler/icons-react'
import { useRef } from 'react'
import { useTranslation } from '@/i18n'

/**
 * The search box above the Users and Teams lists: searches as one types (the list debounces),
 * with a clear button that puts the focus back in the box. Escape clears it too.
 */
export function SearchField({
  label,
  placeholder,
  value,
  onChange,
  busy,
}: {
  label: string
  placeholder: string
  value: string
  onChange: (value: string) => void
  busy?: boolean
}) {
  const { t } = useTranslation()
  const input = useRef<HTMLInputElement>(null)
  return (
    <TextInput
      ref={input}
      type="search"
      label={label}
      placeholder={placeholder}
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      onKeyDown={(e) => {
        if (e.key === 'Escape' && value) {
          e.preventDefault()
          onChange('')
        }
      }}
      leftSection={<IconSearch size={16} aria-hidden />}
      rightSection={
        value ? (
          <ActionIcon
            variant="subtle"
            color="gray"
            loading={busy}
            aria-label={t('admin.people.clear_search')}
            title={t('admin.people.clear_search')}
            onClick={() => {
              onChange('')
              input.current?.focus()
            }}
          >
            <IconX size={16} aria-hidden />
          </ActionIcon>
        ) : null
      }
      maw={{ base: '100%', sm: 420 }}
    />
  )
}
