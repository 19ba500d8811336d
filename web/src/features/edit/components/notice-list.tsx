import { ActionIcon, Button, Group, Paper, Stack, Text, Title, Tooltip } from '@mantine/core'
import { IconBell, IconEdit, IconPlus, IconTrash } from '@tabler/icons-react'
import { type FormEvent, useState } from 'react'
import { confirm } from '@/components/confirm'
import { DataState } from '@/components/data-state'
import { EditModal } from '@/components/edit-modal'
import { Markdown } from '@/components/markdown'
import { MarkdownField } from '@/components/markdown-field'
import { useSubmit } from '@/hooks/use-submit'
import { useTranslation } from '@/i18n'
import { formatDateTime } from '@/utils/format-date'
import { notify } from '@/utils/notify'
import { type EditNotice, useEditNotices, useNoticeActions } from '../api'
import '@mantine/core/styles/Popover.css'
import '@mantine/core/styles/Tooltip.css'

function NoticeEditor({
  gameId,
  notice,
  opened,
  onClose,
}: {
  gameId: number
  /** The notice to edit; null writes a new one. */
  notice: EditNotice | null
  opened: boolean
  onClose: () => void
}) {
  const { t } = useTranslation()
  const { create, update } = useNoticeActions(gameId)
  const [content, setContent] = useState(notice?.values[0] ?? '')
  const { busy, run } = useSubmit()

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    if (!content.trim()) return
    const done = await run(
      async () => {
        if (notice) await update(notice.id, content)
        else await create(content)
      },
      { success: notice ? t('admin.notices.updated') : t('admin.notices.posted') },
    )
    if (!done) return
    onClose()
  }

  return (
    <EditModal
      opened={opened}
      onClose={onClose}
      title={notice ? t('admin.notices.edit') : t('admin.notices.new')}
    >
      <form onSubmit={submit} noValidate>
        <Stack>
          <MarkdownField
            label={t('admin.notices.content')}
            description={t('admin.notices.content_hint')}
            value={content}
            onChange={setContent}
            minRows={5}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.button.cancel')}
            </Button>
            <Button type="submit" loading={busy} disabled={!content.trim()}>
              {notice ? t('common.button.save') : t('admin.notices.post')}
            </Button>
          </Group>
        </Stack>
      </form>
    </EditModal>
  )
}

/** The game's own announcements (not the automatic ones): newest first, with edit and delete. */
export function NoticeList({ gameId }: { gameId: number }) {
  const { t } = useTranslation()
  const { data, error, isLoading, mutate } = useEditNotices(gameId)
  const { remove } = useNoticeActions(gameId)
  // undefined: closed; null: a new notice; a notice: editing it.
  const [editing, setEditing] = useState<EditNotice | null | undefined>(undefined)
  const notices = [...(data ?? [])].sort((a, b) => b.time - a.time)

  const del = async (notice: EditNotice) => {
    const ok = await confirm({
      title: t('admin.notices.delete'),
      message: t('admin.notices.delete_confirm'),
      confirmLabel: t('admin.notices.delete'),
      danger: true,
    })
    if (!ok) return
    try {
      await remove(notice.id)
      notify.success(t('admin.notices.deleted'))
    } catch (err) {
      notify.error(err)
    }
  }

  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={2} size="h3">
          {t('admin.game_tabs.notices')}
        </Title>
        <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setEditing(null)}>
          {t('admin.notices.new')}
        </Button>
      </Group>
      <DataState
        loading={isLoading && !data}
        error={data ? undefined : error}
        onRetry={() => mutate()}
        isEmpty={notices.length === 0}
        empty={{
          icon: IconBell,
          title: t('admin.notices.empty_title'),
          description: t('admin.notices.empty_body'),
        }}
      >
        <Stack
          gap="sm"
          component="ul"
          p={0}
          m={0}
          style={{ listStyle: 'none' }}
          aria-label={t('admin.game_tabs.notices')}
        >
          {notices.map((notice) => (
            <Paper key={notice.id} withBorder p="sm" radius="md" component="li">
              <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
                <Stack gap={4} miw={0} style={{ flex: 1 }}>
                  <Text size="xs" c="dimmed">
                    {formatDateTime(notice.time)}
                  </Text>
                  <Markdown source={notice.values[0] ?? ''} />
                </Stack>
                <Group gap={4} wrap="nowrap">
                  <Tooltip label={t('common.button.edit')}>
                    <ActionIcon
                      variant="subtle"
                      aria-label={t('admin.notices.edit')}
                      onClick={() => setEditing(notice)}
                    >
                      <IconEdit size={18} aria-hidden />
                    </ActionIcon>
                  </Tooltip>
                  <Tooltip label={t('common.button.delete')}>
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      aria-label={t('admin.notices.delete')}
                      onClick={() => del(notice)}
                    >
                      <IconTrash size={18} aria-hidden />
                    </ActionIcon>
                  </Tooltip>
                </Group>
              </Group>
            </Paper>
          ))}
        </Stack>
      </DataState>
      {editing !== undefined && (
        <NoticeEditor
          key={editing?.id ?? 'new'}
          gameId={gameId}
          notice={editing}
          opened
          onClose={() => setEditing(undefined)}
        />
      )}
    </Stack>
  )
}
