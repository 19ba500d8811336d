import { Button, Group, Stack, Switch, TextInput } from '@mantine/core'
import { type FormEvent, useState } from 'react'
import { useNavigate } from 'react-router'
import { EditModal } from '@/components/edit-modal'
import { paths } from '@/features/paths'
import { useSubmit } from '@/hooks/use-submit'
import { useTranslation } from '@/i18n'
import { fromLocalInput, toLocalInput } from '@/utils/datetime'
import { useGameActions } from '../api'
import { TITLE_MAX } from '../game-form'
import '@mantine/core/styles/Switch.css'

const MINUTE = 60_000
const WEEK = 7 * 24 * 3_600_000

/** A new game from a title and its dates; the rest is edited on its info tab, where it opens. */
export function NewGameModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const { create } = useGameActions()
  // From this minute, for a week: a game made with the defaults can be played (and tried) today.
  const [defaults] = useState(() => {
    const start = Math.floor(Date.now() / MINUTE) * MINUTE
    return { start: toLocalInput(start), end: toLocalInput(start + WEEK) }
  })
  const [title, setTitle] = useState('')
  const [start, setStart] = useState(defaults.start)
  const [end, setEnd] = useState(defaults.end)
  // A first game should be playable as made: teams join without waiting, unless switched off.
  const [acceptWithoutReview, setAcceptWithoutReview] = useState(true)
  const { busy, run } = useSubmit()
  const [touched, setTouched] = useState(false)

  const startMs = fromLocalInput(start)
  const endMs = fromLocalInput(end)
  const errors = {
    title: title.trim() ? undefined : t('admin.game.error.title_required'),
    start: startMs === null ? t('admin.game.error.date') : undefined,
    end:
      endMs === null
        ? t('admin.game.error.date')
        : startMs !== null && endMs <= startMs
          ? t('admin.game.error.end_before_start')
          : undefined,
  }
  const valid = !errors.title && !errors.start && !errors.end

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    setTouched(true)
    if (!valid) return
    let id = 0
    const done = await run(
      async () => {
        const game = await create({ title: title.trim(), start: startMs!, end: endMs!, acceptWithoutReview })
        id = game.id
        return game
      },
      { success: (game) => t('admin.games.created', { title: game.title }) },
    )
    if (!done) return
    onClose()
    // Title, dates and review are set: the next step of a first game is its challenges.
    navigate(paths.admin.game(id, 'challenges'))
  }

  return (
    <EditModal opened={opened} onClose={onClose} title={t('admin.games.new')} size="md">
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput
            label={t('admin.game.field.title')}
            required
            maxLength={TITLE_MAX}
            value={title}
            onChange={(e) => setTitle(e.currentTarget.value)}
            error={touched && errors.title}
            data-autofocus
          />
          <TextInput
            type="datetime-local"
            label={t('admin.game.field.start')}
            required
            value={start}
            onChange={(e) => setStart(e.currentTarget.value)}
            error={touched && errors.start}
          />
          <TextInput
            type="datetime-local"
            label={t('admin.game.field.end')}
            required
            value={end}
            onChange={(e) => setEnd(e.currentTarget.value)}
            error={(touched || (startMs !== null && endMs !== null)) && errors.end}
          />
          <Switch
            label={t('admin.game.field.accept_without_review')}
            description={
              acceptWithoutReview
                ? t('admin.game.field.review_state_on')
                : t('admin.game.field.review_state_off')
            }
            checked={acceptWithoutReview}
            onChange={(e) => setAcceptWithoutReview(e.currentTarget.checked)}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.button.cancel')}
            </Button>
            <Button type="submit" loading={busy}>
              {t('admin.games.create')}
            </Button>
          </Group>
        </Stack>
      </form>
    </EditModal>
  )
}
