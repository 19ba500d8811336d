import { Button, FileButton, Progress, Stack } from '@mantine/core'
import { IconUpload } from '@tabler/icons-react'
import { useState } from 'react'
import { useTranslation } from '@/i18n'
import { notify } from '@/utils/notify'
import { type LocalFile, uploadAssets } from '../api'
import '@mantine/core/styles/Progress.css'

/** Picks a file, stores it (`POST /api/assets`) with a progress bar, and hands back its hash. */
export function AssetUploadButton({
  label,
  onStored,
  disabled,
}: {
  label: string
  onStored: (file: LocalFile) => Promise<void> | void
  disabled?: boolean
}) {
  const { t } = useTranslation()
  const [progress, setProgress] = useState<number | null>(null)

  const send = async (file: File | null) => {
    if (!file) return
    if (file.size === 0) {
      notify.error(t('common.upload.empty'))
      return
    }
    setProgress(0)
    try {
      const [stored] = await uploadAssets([file], setProgress)
      if (!stored) throw new Error(t('admin.flags.upload_nothing'))
      await onStored(stored)
    } catch (err) {
      notify.error(err)
    } finally {
      setProgress(null)
    }
  }

  return (
    <Stack gap={4}>
      <FileButton onChange={send} disabled={disabled}>
        {(props) => (
          <Button
            {...props}
            variant="light"
            leftSection={<IconUpload size={16} aria-hidden />}
            loading={progress !== null}
            disabled={disabled}
          >
            {label}
          </Button>
        )}
      </FileButton>
      {progress !== null && (
        <Progress value={progress * 100} size="sm" animated aria-label={t('common.upload.progress')} />
      )}
    </Stack>
  )
}
