import { Button, Group, SegmentedControl, Stack, Text, TextInput } from '@mantine/core'
import { IconDeviceFloppy, IconX } from '@tabler/icons-react'
import { type FormEvent, useState } from 'react'
import type { FileType } from '@/api/types'
import { confirm } from '@/components/confirm'
import { Section } from '@/components/section'
import { useSubmit } from '@/hooks/use-submit'
import { useTranslation } from '@/i18n'
import { type EditChallenge, useChallengeActions } from '../api'
import { AssetUploadButton } from './asset-upload-button'
import { AttachmentLink } from './attachment-link'
import '@mantine/core/styles/SegmentedControl.css'
import '@mantine/core/styles/FloatingIndicator.css'

const URL_PATTERN = /^https?:\/\/\S+$/

/** The file every team downloads: none, one stored here, or a link elsewhere. */
export function AttachmentSection({
  gameId,
  challenge,
  onChanged,
}: {
  gameId: number
  challenge: EditChallenge
  onChanged: () => void
}) {
  const { t } = useTranslation()
  const { setAttachment } = useChallengeActions(gameId)
  const current = challenge.attachment?.type ?? 'None'
  const [kind, setKind] = useState<FileType>(current)
  const [url, setUrl] = useState(current === 'Remote' ? (challenge.attachment?.url ?? '') : '')
  const { busy, run } = useSubmit()

  const apply = async (body: Parameters<typeof setAttachment>[1], message: string) => {
    await run(
      async () => {
        await setAttachment(challenge.id, body)
        onChanged()
      },
      { success: message },
    )
  }

  const saveRemote = (e: FormEvent) => {
    e.preventDefault()
    if (!URL_PATTERN.test(url.trim())) return
    apply({ attachmentType: 'Remote', remoteUrl: url.trim() }, t('admin.flags.attachment_saved'))
  }

  const clear = async () => {
    const ok = await confirm({
      title: t('admin.flags.attachment_clear'),
      message: t('admin.flags.attachment_clear_confirm'),
      confirmLabel: t('admin.flags.attachment_clear'),
      danger: true,
    })
    if (ok) apply({ attachmentType: 'None' }, t('admin.flags.attachment_cleared'))
  }

  return (
    <Section title={t('admin.flags.attachment')}>
      <Group gap="xs">
        <Text size="sm" fw={600}>
          {t('admin.flags.attachment_current')}
        </Text>
        <AttachmentLink attachment={challenge.attachment} />
      </Group>
      <SegmentedControl
        value={kind}
        onChange={(v) => setKind(v as FileType)}
        data={[
          { value: 'None', label: t('admin.flags.kind.None') },
          { value: 'Local', label: t('admin.flags.kind.Local') },
          { value: 'Remote', label: t('admin.flags.kind.Remote') },
        ]}
        aria-label={t('admin.flags.attachment_kind')}
        w="fit-content"
      />
      {kind === 'None' && (
        <Stack gap="xs" align="flex-start">
          <Text size="sm" c="dimmed">
            {t('admin.flags.kind_hint.None')}
          </Text>
          <Button
            variant="light"
            color="red"
            leftSection={<IconX size={16} aria-hidden />}
            onClick={clear}
            loading={busy}
            disabled={current === 'None'}
          >
            {t('admin.flags.attachment_clear')}
          </Button>
        </Stack>
      )}
      {kind === 'Local' && (
        <Stack gap="xs" align="flex-start">
          <Text size="sm" c="dimmed">
            {t('admin.flags.kind_hint.Local')}
          </Text>
          <AssetUploadButton
            label={t('admin.flags.upload_file')}
            disabled={busy}
            onStored={(file) =>
              apply(
                { attachmentType: 'Local', fileHash: file.hash },
                t('admin.flags.attachment_uploaded', { name: file.name }),
              )
            }
          />
        </Stack>
      )}
      {kind === 'Remote' && (
        <form onSubmit={saveRemote} noValidate>
          <Group align="flex-end" gap="sm">
            <TextInput
              label={t('admin.flags.remote_url')}
              description={t('admin.flags.kind_hint.Remote')}
              placeholder="https://example.com/challenge.zip"
              value={url}
              onChange={(e) => setUrl(e.currentTarget.value)}
              error={
                url.trim() && !URL_PATTERN.test(url.trim()) ? t('admin.flags.remote_invalid') : undefined
              }
              style={{ flex: '1 1 260px' }}
            />
            <Button
              type="submit"
              loading={busy}
              disabled={!URL_PATTERN.test(url.trim())}
              leftSection={<IconDeviceFloppy size={16} aria-hidden />}
            >
              {t('common.button.save')}
            </Button>
          </Group>
        </form>
      )}
    </Section>
  )
}
