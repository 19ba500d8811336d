import { Button, FileButton, Group, Text } from '@mantine/core'
import { IconFileZip } from '@tabler/icons-react'
import { formatSize } from '@/utils/format-size'

/**
 * Choosing one ZIP file: the button, then the chosen file's name and size (read out when it
 * changes), or what to say while none is chosen. Used by the game import and the folder upload.
 */
export function ZipPicker({
  file,
  onChange,
  chooseLabel,
  noFileLabel,
}: {
  file: File | null
  onChange: (file: File | null) => void
  chooseLabel: string
  noFileLabel: string
}) {
  return (
    <Group gap="sm" wrap="wrap">
      <FileButton onChange={onChange} accept=".zip,application/zip">
        {(props) => (
          <Button {...props} variant="light" leftSection={<IconFileZip size={16} aria-hidden />}>
            {chooseLabel}
          </Button>
        )}
      </FileButton>
      <Text size="sm" c={file ? undefined : 'dimmed'} style={{ wordBreak: 'break-all' }} aria-live="polite">
        {file ? `${file.name} (${formatSize(file.size)})` : noFileLabel}
      </Text>
    </Group>
  )
}
