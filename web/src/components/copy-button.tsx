import { ActionIcon, VisuallyHidden } from '@mantine/core'
import { useClipboard } from '@mantine/hooks'
import { IconCheck, IconCopy } from '@tabler/icons-react'
import { useTranslation } from '@/i18n'

/**
 * An icon button that copies `value`; it turns into a check for a moment and tells screen
 * readers "Copied" (a toast per copy would be noise).
 */
export function CopyButton({ value, label }: { value: string; label: string }) {
  const { t } = useTranslation()
  const clipboard = useClipboard({ timeout: 1500 })
  return (
    <>
      <ActionIcon
        variant="subtle"
        color={clipboard.copied ? 'teal' : 'gray'}
        aria-label={label}
        title={label}
        onClick={() => clipboard.copy(value)}
      >
        {clipboard.copied ? <IconCheck size={16} aria-hidden /> : <IconCopy size={16} aria-hidden />}
      </ActionIcon>
      <VisuallyHidden aria-live="polite">{clipboard.copied ? t('common.button.copied') : ''}</VisuallyHidden>
    </>
  )
}
