import { Button, Group, SegmentedControl, Stack, Text, TextInput } from '@mantine/core'
import { IconCheck, IconPlus } from '@tabler/icons-react'
import { type FormEvent, useState } from 'react'
import { MONO_INPUT } from '@/components/mono-input'
import { Section } from '@/components/section'
import { useSubmit } from '@/hooks/use-submit'
import { useTranslation } from '@/i18n'
import { type EditChallenge, type LocalFile, useChallengeActions } from '../api'
import { FLAG_MAX } from '../flag-rules'
import { AssetUploadButton } from './asset-upload-button'
import { FlagList } from './flag-list'
import '@mantine/core/styles/SegmentedControl.css'
import '@mantine/core/styles/FloatingIndicator.css'

const URL_PATTERN = /^https?:\/\/\S+$/

/**
 * One flag per team, each with its own file: every team that opens the challenge is handed an
 * unused flag and downloads that flag's attachment (under the challenge's download name).
 */
export function DynamicAttachmentFlags({
  gameId,
  challenge,
  onChanged,
}: {
  gameId: number
  challenge: EditChallenge
  onChanged: () => void
}) {
  const { t } = useTranslation()
  const { addFlags } = useChallengeActions(gameId)
  const [flag, setFlag] = useState('')
  const [kind, setKind] = useState<'Local' | 'Remote'>('Local')
  const [file, setFile] = useState<LocalFile | null>(null)
  const [url, setUrl] = useState('')
  const { busy, run } = useSubmit()
  const ready =
    !!flag.trim() &&
    flag.trim().length <= FLAG_MAX &&
    (kind === 'Local' ? !!file : URL_PATTERN.test(url.trim()))

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    if (!ready) return
    const done = await run(
      async () => {
        await addFlags(challenge.id, [
          kind === 'Local'
            ? { flag: flag.trim(), attachmentType: 'Local', fileHash: file!.hash }
            : { flag: flag.trim(), attachmentType: 'Remote', remoteUrl: url.trim() },
        ])
        onChanged()
      },
      { success: t('admin.flags.added', { count: 1 }) },
    )
    if (!done) return
    setFlag('')
    setFile(null)
    setUrl('')
  }

  return (
    <Section title={t('admin.flags.title')}>
      <Text size="sm" c="dimmed">
        {t('admin.flags.dynamic_attachment_hint', { name: challenge.fileName ?? 'attachment' })}
      </Text>
      <FlagList
        gameId={gameId}
        challengeId={challenge.id}
        flags={challenge.flags}
        withAttachments
        onChanged={onChanged}
      />
      <form onSubmit={submit} noValidate aria-label={t('admin.flags.add_dynamic')}>
        <Stack
          gap="sm"
          p="sm"
          style={{ border: '1px dashed var(--mantine-color-default-border)', borderRadius: 8 }}
        >
          <Text fw={600} size="sm">
            {t('admin.flags.add_dynamic')}
          </Text>
          <TextInput
            label={t('admin.flags.flag')}
            maxLength={FLAG_MAX}
            value={flag}
            onChange={(e) => setFlag(e.currentTarget.value)}
            styles={MONO_INPUT}
          />
          <SegmentedControl
            value={kind}
            onChange={(v) => setKind(v as 'Local' | 'Remote')}
            data={[
              { value: 'Local', label: t('admin.flags.kind.Local') },
              { value: 'Remote', label: t('admin.flags.kind.Remote') },
            ]}
            aria-label={t('admin.flags.attachment_kind')}
            w="fit-content"
          />
          {kind === 'Local' ? (
            <Group gap="sm" align="center">
              <AssetUploadButton
                label={t('admin.flags.upload_file')}
                onStored={(stored) => setFile(stored)}
              />
              {file && (
                <Group gap={4} c="teal">
                  <IconCheck size={16} aria-hidden />
                  <Text size="sm">{t('admin.flags.file_ready', { name: file.name })}</Text>
                </Group>
              )}
            </Group>
          ) : (
            <TextInput
              label={t('admin.flags.remote_url')}
              placeholder="https://example.com/team-file.zip"
              value={url}
              onChange={(e) => setUrl(e.currentTarget.value)}
              error={
                url.trim() && !URL_PATTERN.test(url.trim()) ? t('admin.flags.remote_invalid') : undefined
              }
            />
          )}
          <Button
            type="submit"
            w="fit-content"
            loading={busy}
            disabled={!ready}
            leftSection={<IconPlus size={16} aria-hidden />}
          >
            {t('admin.flags.add_dynamic_submit')}
          </Button>
        </Stack>
      </form>
    </Section>
  )
}
