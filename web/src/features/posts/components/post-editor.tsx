import {
  Button,
  Group,
  Input,
  Paper,
  SegmentedControl,
  Stack,
  Switch,
  TagsInput,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core'
import { IconDeviceFloppy, IconEye, IconTrash } from '@tabler/icons-react'
import { type FormEvent, useState } from 'react'
import { Link, useNavigate } from 'react-router'
import { confirm } from '@/components/confirm'
import { Markdown } from '@/components/markdown'
import { paths } from '@/features/paths'
import { useUnsavedGuard } from '@/hooks/use-unsaved-guard'
import { useTranslation } from '@/i18n'
import { notify } from '@/utils/notify'
import { usePostActions } from '../api'
import { isDirty, type PostDraft, TITLE_MAX, titleProblem, toBody } from '../post-form'
import classes from './posts.module.css'
import '@mantine/core/styles/SegmentedControl.css'
import '@mantine/core/styles/FloatingIndicator.css'
import '@mantine/core/styles/Switch.css'
import '@mantine/core/styles/Combobox.css'
import '@mantine/core/styles/Pill.css'
import '@mantine/core/styles/PillsInput.css'
import '@mantine/core/styles/Popover.css'

/**
 * Writes a new post (`id` null) or changes one: title, summary, Markdown content with a preview,
 * tags and the pin. Leaving with unsaved changes asks first.
 */
export function PostEditor({ id, initial }: { id: string | null; initial: PostDraft }) {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const { create, update, remove } = usePostActions()
  const [saved, setSaved] = useState(initial)
  const [draft, setDraft] = useState(initial)
  const [titleError, setTitleError] = useState<string | null>(null)
  const [view, setView] = useState<'write' | 'preview'>('write')
  const [busy, setBusy] = useState<'save' | 'delete' | null>(null)
  const dirty = isDirty(draft, saved)
  useUnsavedGuard(dirty && busy === null, {
    title: t('post.edit.leave_title'),
    message: t('post.edit.leave_body'),
    confirmLabel: t('post.edit.leave'),
  })

  const set = <K extends keyof PostDraft>(key: K, value: PostDraft[K]) =>
    setDraft((d) => ({ ...d, [key]: value }))

  const save = async (event: FormEvent) => {
    event.preventDefault()
    const problem = titleProblem(draft.title)
    setTitleError(problem ? t(`post.edit.${problem}`, { max: TITLE_MAX }) : null)
    if (problem) return
    setBusy('save')
    try {
      const body = toBody(draft)
      if (id === null) {
        const newId = await notify.pending(create(body), {
          pending: t('post.edit.saving'),
          success: t('post.edit.created'),
        })
        setSaved(draft)
        navigate(paths.postEdit(newId), { replace: true })
        return
      }
      await notify.pending(update(id, body), {
        pending: t('post.edit.saving'),
        success: t('post.edit.saved'),
      })
      setSaved(draft)
    } catch {}
    setBusy(null)
  }

  const destroy = async () => {
    if (id === null) return
    const sure = await confirm({
      title: t('post.edit.delete_title'),
      message: t('post.edit.delete_body', { title: saved.title }),
      confirmLabel: t('common.button.delete'),
      danger: true,
    })
    if (!sure) return
    setBusy('delete')
    try {
      await notify.pending(remove(id), { pending: t('post.edit.deleting'), success: t('post.edit.deleted') })
      navigate(paths.posts, { replace: true })
    } catch {
      setBusy(null)
    }
  }

  return (
    <form onSubmit={save} noValidate className={classes.article}>
      <Stack gap="md">
        <Group justify="space-between" gap="sm">
          <Title order={1} size="h2">
            {id === null ? t('post.edit.new_title') : t('post.edit.title')}
          </Title>
          {id !== null && (
            <Button
              component={Link}
              to={paths.post(id)}
              variant="subtle"
              leftSection={<IconEye size={16} aria-hidden />}
            >
              {t('post.edit.view')}
            </Button>
          )}
        </Group>
        <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
          <Stack gap="md">
            <TextInput
              label={t('post.edit.field_title')}
              value={draft.title}
              onChange={(e) => {
                set('title', e.currentTarget.value)
                setTitleError(null)
              }}
              error={titleError}
              description={t('post.edit.count', { count: draft.title.length, max: TITLE_MAX })}
              required
              maxLength={TITLE_MAX}
            />
            <Textarea
              label={t('post.edit.field_summary')}
              description={t('post.edit.markdown')}
              value={draft.summary}
              onChange={(e) => set('summary', e.currentTarget.value)}
              autosize
              minRows={2}
              maxRows={8}
            />
            <Stack gap={6}>
              <Group justify="space-between" align="flex-end" gap="xs">
                <Input.Label htmlFor="post-content">{t('post.edit.field_content')}</Input.Label>
                <SegmentedControl
                  size="xs"
                  value={view}
                  onChange={(v) => setView(v as 'write' | 'preview')}
                  aria-label={t('post.edit.mode')}
                  data={[
                    { value: 'write', label: t('post.edit.write') },
                    { value: 'preview', label: t('post.edit.preview') },
                  ]}
                />
              </Group>
              {view === 'write' ? (
                <Textarea
                  id="post-content"
                  description={t('post.edit.markdown')}
                  value={draft.content}
                  onChange={(e) => set('content', e.currentTarget.value)}
                  autosize
                  minRows={10}
                  maxRows={30}
                  styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
                />
              ) : (
                <Paper withBorder radius="sm" p="md" mih={200} className={classes.content} aria-live="polite">
                  {draft.content.trim() ? (
                    <Markdown source={draft.content} />
                  ) : (
                    <Text c="dimmed">{t('post.edit.preview_empty')}</Text>
                  )}
                </Paper>
              )}
            </Stack>
            <TagsInput
              label={t('post.edit.field_tags')}
              description={t('post.edit.tags_hint')}
              value={draft.tags}
              onChange={(tags) => set('tags', tags)}
              maxTags={16}
              clearable
            />
            <Switch
              label={t('post.edit.field_pinned')}
              checked={draft.isPinned}
              onChange={(e) => set('isPinned', e.currentTarget.checked)}
            />
          </Stack>
        </Paper>
        <Group justify="space-between" gap="sm">
          {id !== null ? (
            <Button
              color="red"
              variant="light"
              leftSection={<IconTrash size={16} aria-hidden />}
              onClick={destroy}
              loading={busy === 'delete'}
              disabled={busy === 'save'}
            >
              {t('common.button.delete')}
            </Button>
          ) : (
            <span />
          )}
          <Group gap="sm">
            {dirty && (
              <Text size="sm" c="dimmed" role="status">
                {t('post.edit.unsaved')}
              </Text>
            )}
            <Button
              type="submit"
              leftSection={<IconDeviceFloppy size={16} aria-hidden />}
              loading={busy === 'save'}
              disabled={busy === 'delete' || (id !== null && !dirty)}
            >
              {id === null ? t('post.edit.publish') : t('common.button.save')}
            </Button>
          </Group>
        </Group>
      </Stack>
    </form>
  )
}
