import { ActionIcon, Code, Group, Paper, Stack, Text } from '@mantine/core'
import { IconFlag, IconTrash } from '@tabler/icons-react'
import { confirm } from '@/components/confirm'
import { useTranslation } from '@/i18n'
import { notify } from '@/utils/notify'
import { type EditFlag, useChallengeActions } from '../api'
import { AttachmentLink } from './attachment-link'

/** The flags of a challenge, each deletable (with its attachment, when it has one). */
export function FlagList({
  gameId,
  challengeId,
  flags,
  withAttachments,
  onChanged,
}: {
  gameId: number
  challengeId: number
  flags: EditFlag[]
  withAttachments?: boolean
  onChanged: () => void
}) {
  const { t } = useTranslation()
  const { deleteFlag } = useChallengeActions(gameId)

  const del = async (flag: EditFlag) => {
    const ok = await confirm({
      title: t('admin.flags.delete'),
      message: (
        <Stack gap="xs">
          <Text>{t('admin.flags.delete_confirm')}</Text>
          <Code block>{flag.flag}</Code>
          {flags.length === 1 && <Text c="orange">{t('admin.flags.delete_last')}</Text>}
        </Stack>
      ),
      confirmLabel: t('admin.flags.delete'),
      danger: true,
    })
    if (!ok) return
    try {
      await deleteFlag(challengeId, flag.id)
      onChanged()
      notify.success(t('admin.flags.deleted'))
    } catch (err) {
      notify.error(err)
    }
  }

  if (!flags.length)
    return (
      <Group gap="xs" c="dimmed" wrap="nowrap" align="flex-start">
        <IconFlag size={18} aria-hidden style={{ flexShrink: 0 }} />
        <Text size="sm">{t('admin.flags.none')}</Text>
      </Group>
    )

  return (
    <Stack
      gap={6}
      component="ul"
      p={0}
      m={0}
      style={{ listStyle: 'none' }}
      aria-label={t('admin.flags.list')}
    >
      {flags.map((flag) => (
        <Paper key={flag.id} withBorder px="sm" py={6} radius="sm" component="li">
          <Group justify="space-between" wrap="nowrap" gap="sm">
            <Stack gap={2} miw={0}>
              <Code style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}>{flag.flag}</Code>
              {withAttachments && <AttachmentLink attachment={flag.attachment} />}
            </Stack>
            <ActionIcon
              variant="subtle"
              color="red"
              onClick={() => del(flag)}
              aria-label={t('admin.flags.delete_named', { flag: flag.flag })}
            >
              <IconTrash size={16} aria-hidden />
            </ActionIcon>
          </Group>
        </Paper>
      ))}
    </Stack>
  )
}
