import { Alert, Button, FileButton, Group, Modal, Paper, Progress, Stack, Text } from '@mantine/core'
import { IconAlertTriangle, IconFileText, IconUpload } from '@tabler/icons-react'
import { useState } from 'react'
import { Markdown } from '@/components/markdown'
import { useTranslation } from '@/i18n'
import { formatDateTime } from '@/utils/format-date'
import { formatSize } from '@/utils/format-size'
import { notify } from '@/utils/notify'
import { useUploadWriteup, useWriteup } from '../api'
import '@mantine/core/styles/Overlay.css'
import '@mantine/core/styles/ModalBase.css'
import '@mantine/core/styles/Modal.css'
import '@mantine/core/styles/Progress.css'

const MAX_BYTES = 20 * 1024 * 1024

/** The writeup hand-in: deadline, the organisers' note, what we sent, and a PDF upload. */
export default function WriteupDialog({
  gameId,
  deadline,
  onClose,
}: {
  gameId: number
  deadline: number
  onClose: () => void
}) {
  const { t } = useTranslation()
  const { data, error, isLoading } = useWriteup(gameId, true)
  const send = useUploadWriteup(gameId)
  const [progress, setProgress] = useState<number | null>(null)
  const closed = Date.now() > deadline

  const pick = async (file: File | null) => {
    if (!file) return
    if (file.type !== 'application/pdf' || !file.name.toLowerCase().endsWith('.pdf'))
      return notify.error(t('challenge.writeup.pdf_only'))
    if (file.size === 0 || file.size > MAX_BYTES)
      return notify.error(t('challenge.writeup.too_large', { max: formatSize(MAX_BYTES) }))
    setProgress(0)
    try {
      await send(file, setProgress)
      notify.success(t('challenge.writeup.uploaded'))
    } catch (err) {
      notify.error(err)
    } finally {
      setProgress(null)
    }
  }

  return (
    <Modal
      opened
      onClose={onClose}
      closeButtonProps={{ 'aria-label': t('common.button.close') }}
      title={t('challenge.writeup.title')}
      size="lg"
    >
      <Stack>
        <Text size="sm">
          {t('challenge.writeup.deadline')}{' '}
          <Text span fw={600}>
            <time dateTime={new Date(deadline).toISOString()}>
              {formatDateTime(deadline, { dateStyle: 'long' })}
            </time>
          </Text>
        </Text>
        <Text size="sm" c="dimmed">
          {t('challenge.writeup.format')}
        </Text>
        {data?.note?.trim() && (
          <Paper withBorder p="sm" radius="md">
            <Markdown source={data.note} />
          </Paper>
        )}
        {error && (
          <Alert color="red" icon={<IconAlertTriangle aria-hidden />}>
            {error.title}
          </Alert>
        )}
        <Group gap="xs" wrap="nowrap">
          <IconFileText size={20} aria-hidden style={{ flexShrink: 0 }} />
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {isLoading
              ? t('common.loading')
              : data?.submitted
                ? t('challenge.writeup.current', { name: data.name, size: formatSize(data.fileSize) })
                : t('challenge.writeup.none')}
          </Text>
        </Group>
        {closed && (
          <Alert color="yellow" icon={<IconAlertTriangle aria-hidden />}>
            {t('challenge.writeup.closed')}
          </Alert>
        )}
        {progress !== null && (
          <Progress value={progress * 100} aria-label={t('common.upload.progress')} animated />
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common.button.close')}
          </Button>
          <FileButton onChange={pick} accept="application/pdf,.pdf" disabled={closed || progress !== null}>
            {(props) => (
              <Button
                {...props}
                leftSection={<IconUpload size={18} aria-hidden />}
                loading={progress !== null}
                disabled={closed}
              >
                {data?.submitted ? t('challenge.writeup.replace') : t('challenge.writeup.upload')}
              </Button>
            )}
          </FileButton>
        </Group>
      </Stack>
    </Modal>
  )
}
