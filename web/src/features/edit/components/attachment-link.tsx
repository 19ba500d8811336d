import { Anchor, Group, Text } from '@mantine/core'
import { IconExternalLink, IconPaperclip } from '@tabler/icons-react'
import { useTranslation } from '@/i18n'
import { formatSize } from '@/utils/format-size'
import type { EditChallenge } from '../api'

type Attachment = NonNullable<EditChallenge['attachment']>

/** A stored attachment as a link: the file name and size, or the remote address. */
export function AttachmentLink({ attachment }: { attachment: Attachment | null | undefined }) {
  const { t } = useTranslation()
  if (!attachment || attachment.type === 'None' || !attachment.url)
    return (
      <Text size="sm" c="dimmed">
        {t('admin.flags.no_attachment')}
      </Text>
    )
  const local = attachment.type === 'Local'
  const name = local ? decodeURIComponent(attachment.url.split('/').pop() ?? '') : attachment.url
  return (
    <Group gap={6} wrap="nowrap" miw={0}>
      {local ? <IconPaperclip size={16} aria-hidden /> : <IconExternalLink size={16} aria-hidden />}
      <Anchor href={attachment.url} target="_blank" rel="noopener noreferrer" size="sm" truncate>
        {name}
      </Anchor>
      {local && attachment.fileSize != null && (
        <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
          {formatSize(attachment.fileSize)}
        </Text>
      )}
    </Group>
  )
}
