import { Button, FileButton, Stack } from '@mantine/core'
import { IconUpload } from '@tabler/icons-react'
import { useState } from 'react'
import { upload } from '@/api/upload'
import { useTranslation } from '@/i18n'
import { formatSize } from '@/utils/format-size'
import { notify } from '@/utils/notify'

/** The image types the server accepts for avatars, posters and logos (seed section 5). */
export const IMAGE_TYPES = ['image/png', 'image/gif', 'image/jpeg', 'image/webp', 'image/avif', 'image/heic']
export const MAX_IMAGE_BYTES = 3 * 1024 * 1024

/** Why a file cannot be uploaded as an image, or null when it can. */
export function imageProblem(file: { type: string; size: number }): 'type' | 'size' | 'empty' | null {
  if (!IMAGE_TYPES.includes(file.type)) return 'type'
  if (file.size === 0) return 'empty'
  if (file.size > MAX_IMAGE_BYTES) return 'size'
  return null
}

/**
 * A button that picks an image, checks its type and size in the browser, uploads it as the
 * multipart field `file` with a progress bar, and hands back the server's answer.
 */
export function ImageUpload({
  url,
  method = 'PUT',
  label,
  onUploaded,
}: {
  url: string
  method?: 'PUT' | 'POST'
  label?: string
  onUploaded: (result: unknown) => void
}) {
  const { t } = useTranslation()
  const [progress, setProgress] = useState<number | null>(null)

  const send = async (file: File | null) => {
    if (!file) return
    const problem = imageProblem(file)
    if (problem) {
      notify.error(t(`common.upload.${problem}`, { max: formatSize(MAX_IMAGE_BYTES) }))
      return
    }
    const form = new FormData()
    form.append('file', file)
    setProgress(0)
    try {
      const result = await upload(method, url, form, setProgress)
      notify.success(t('common.upload.done'))
      onUploaded(result)
    } catch (err) {
      notify.error(err)
    } finally {
      setProgress(null)
    }
  }

  return (
    <Stack gap={4}>
      <FileButton onChange={send} accept={IMAGE_TYPES.join(',')}>
        {(props) => (
          <Button
            {...props}
            variant="light"
            leftSection={<IconUpload size={16} aria-hidden />}
            loading={progress !== null}
          >
            {label ?? t('common.upload.image')}
          </Button>
        )}
      </FileButton>
      {/* The native bar: accessible as is, and no stylesheet on the account pages' budget. */}
      {progress !== null && (
        <progress
          value={progress}
          max={1}
          aria-label={t('common.upload.progress')}
          style={{ width: '100%' }}
        />
      )}
    </Stack>
  )
}
