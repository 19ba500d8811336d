import { Badge, Button, Group, Paper, Select, Stack, Switch, Text, Title } from '@mantine/core'
import { IconClock, IconEdit, IconFolderUp, IconPlus, IconPuzzle, IconRefresh } from '@tabler/icons-react'
import { useState } from 'react'
import { Link } from 'react-router'
import type { ChallengeCategory } from '@/api/types'
import { DataState } from '@/components/data-state'
import { useFeature } from '@/features/extensions/api'
import { paths } from '@/features/paths'
import { useTranslation } from '@/i18n'
import { formatDateTime } from '@/utils/format-date'
import { notify } from '@/utils/notify'
import { type EditChallengeSummary, useChallengeActions, useEditChallenges, useEditGame } from '../api'
import { CATEGORY_COLOR, isRunning, TYPE_COLOR } from '../categories'
import { sortChallenges } from '../challenge-form'
import { useEnableChallenge } from '../use-enable-challenge'
import { FolderModal } from './folder-modal'
import { NewChallengeModal } from './new-challenge-modal'
import '@mantine/core/styles/Badge.css'
import '@mantine/core/styles/Switch.css'
import '@mantine/core/styles/Combobox.css'

/** Scheduled release: when the challenge opens and closes, said against the current time. */
function ScheduleLine({ challenge }: { challenge: EditChallengeSummary }) {
  const { t } = useTranslation()
  const now = Date.now()
  const parts: string[] = []
  if (challenge.openAt != null)
    parts.push(
      t(challenge.openAt > now ? 'admin.challenge.schedule.opens' : 'admin.challenge.schedule.opened', {
        time: formatDateTime(challenge.openAt),
      }),
    )
  if (challenge.closeAt != null)
    parts.push(
      t(challenge.closeAt > now ? 'admin.challenge.schedule.closes' : 'admin.challenge.schedule.closed', {
        time: formatDateTime(challenge.closeAt),
      }),
    )
  if (!parts.length) return null
  const waiting = challenge.openAt != null && challenge.openAt > now
  return (
    // Still to open: said in the text colour (dimmed text is for the settled past), with an orange clock.
    <Group gap={4} wrap="nowrap" c={waiting ? undefined : 'dimmed'}>
      <IconClock
        size={14}
        aria-hidden
        style={{ flex: 'none' }}
        color={waiting ? 'var(--mantine-color-orange-text)' : undefined}
      />
      <Text size="xs" c="inherit">
        {parts.join(' · ')}
      </Text>
    </Group>
  )
}

function ChallengeRow({
  gameId,
  challenge,
  running,
}: {
  gameId: number
  challenge: EditChallengeSummary
  running: boolean
}) {
  const { t } = useTranslation()
  const { toggle, busy } = useEnableChallenge(gameId, challenge, running)
  const scheduled = useFeature('scheduledRelease') === true

  return (
    <Paper withBorder p="sm" radius="md" component="li">
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Stack gap={4} miw={0} style={{ flex: '1 1 240px' }}>
          <Group gap={6}>
            <Badge color={CATEGORY_COLOR[challenge.category]} variant="light" size="sm">
              {t(`admin.category.${challenge.category}`)}
            </Badge>
            <Badge color={TYPE_COLOR[challenge.type]} variant="outline" size="sm">
              {t(`admin.challenge_type.${challenge.type}`)}
            </Badge>
          </Group>
          <Title order={3} size="h5" style={{ wordBreak: 'break-word' }}>
            <Link to={paths.admin.challenge(gameId, challenge.id)} style={{ color: 'inherit' }}>
              {challenge.title}
            </Link>
          </Title>
          <Text size="xs" c="dimmed">
            {t('admin.challenges.score_line', {
              score: challenge.score,
              original: challenge.originalScore,
              min: challenge.minScore,
            })}
          </Text>
          {scheduled && <ScheduleLine challenge={challenge} />}
        </Stack>
        <Group gap="sm" wrap="nowrap">
          <Switch
            label={t('admin.challenges.enabled_label')}
            checked={challenge.isEnabled}
            disabled={busy}
            onChange={(e) => toggle(e.currentTarget.checked)}
            aria-label={t('admin.challenges.enable_named', { title: challenge.title })}
          />
          <Button
            component={Link}
            to={paths.admin.challenge(gameId, challenge.id)}
            size="xs"
            variant="light"
            leftSection={<IconEdit size={14} aria-hidden />}
            aria-label={t('admin.challenges.edit_named', { title: challenge.title })}
          >
            {t('common.button.edit')}
          </Button>
        </Group>
      </Group>
    </Paper>
  )
}

/** The game's challenges, filterable by category, with enable switches and "new challenge". */
export function ChallengeList({ gameId }: { gameId: number }) {
  const { t } = useTranslation()
  const { data, error, isLoading, mutate } = useEditChallenges(gameId)
  const { data: game } = useEditGame(gameId)
  const { updateAccepted } = useChallengeActions(gameId)
  const [category, setCategory] = useState<ChallengeCategory | null>(null)
  const [creating, setCreating] = useState(false)
  const [uploading, setUploading] = useState(false)
  const [recounting, setRecounting] = useState(false)
  const running = game ? isRunning(game) : false
  const present = [...new Set((data ?? []).map((c) => c.category))]
  const shown = sortChallenges((data ?? []).filter((c) => !category || c.category === category))

  const recount = async () => {
    setRecounting(true)
    try {
      await updateAccepted()
      notify.success(t('admin.challenges.recounted'))
    } catch (err) {
      notify.error(err)
    } finally {
      setRecounting(false)
    }
  }

  return (
    <Stack gap="md">
      <Group justify="space-between" gap="sm">
        <Title order={2} size="h3">
          {t('admin.game_tabs.challenges')}
        </Title>
        <Group gap="sm">
          <Button
            variant="default"
            leftSection={<IconRefresh size={16} aria-hidden />}
            onClick={recount}
            loading={recounting}
          >
            {t('admin.challenges.recount')}
          </Button>
          <Button
            variant="default"
            leftSection={<IconFolderUp size={16} aria-hidden />}
            onClick={() => setUploading(true)}
          >
            {t('admin.folder.open')}
          </Button>
          <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setCreating(true)}>
            {t('admin.challenges.new')}
          </Button>
        </Group>
      </Group>
      {present.length > 1 && (
        <Select
          label={t('admin.challenges.filter')}
          data={[
            { value: '', label: t('admin.challenges.all_categories') },
            ...present.map((c) => ({ value: c, label: t(`admin.category.${c}`) })),
          ]}
          value={category ?? ''}
          onChange={(v) => setCategory((v || null) as ChallengeCategory | null)}
          allowDeselect={false}
          maw={280}
        />
      )}
      <DataState
        loading={isLoading && !data}
        error={data ? undefined : error}
        onRetry={() => mutate()}
        isEmpty={data?.length === 0}
        empty={{
          icon: IconPuzzle,
          title: t('admin.challenges.empty_title'),
          description: t('admin.challenges.empty_body'),
        }}
      >
        <Stack
          gap="sm"
          component="ul"
          p={0}
          m={0}
          style={{ listStyle: 'none' }}
          aria-label={t('admin.game_tabs.challenges')}
        >
          {shown.map((c) => (
            <ChallengeRow key={c.id} gameId={gameId} challenge={c} running={running} />
          ))}
        </Stack>
      </DataState>
      {creating && <NewChallengeModal gameId={gameId} opened onClose={() => setCreating(false)} />}
      {uploading && <FolderModal gameId={gameId} opened onClose={() => setUploading(false)} />}
    </Stack>
  )
}
