import { dynamicScore } from '@engine/scoring.ts'
import {
  Alert,
  Badge,
  Button,
  Grid,
  Group,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
} from '@mantine/core'
import { IconArrowLeft, IconArrowRight, IconDeviceFloppy, IconFlag, IconTrash } from '@tabler/icons-react'
import { type FormEvent, useState } from 'react'
import { Link, useNavigate } from 'react-router'
import { ChallengeCategoryValues } from '@/api/schema.gen'
import type { ChallengeCategory } from '@/api/types'
import { confirm } from '@/components/confirm'
import { MarkdownField } from '@/components/markdown-field'
import { Section } from '@/components/section'
import classes from '@/components/sticky-bar.module.css'
import { useFeature } from '@/features/extensions/api'
import { paths } from '@/features/paths'
import { useSubmit } from '@/hooks/use-submit'
import { useUnsavedGuard } from '@/hooks/use-unsaved-guard'
import { useTranslation } from '@/i18n'
import { notify } from '@/utils/notify'
import { afterSave } from '../after-save'
import { type EditChallenge, useChallengeActions, useEditChallenge, useEditChallenges } from '../api'
import { CATEGORY_COLOR, TYPE_COLOR } from '../categories'
import {
  type ChallengeForm,
  type ChallengeFormErrors,
  challengeBody,
  neighbours,
  toChallengeForm,
  validateChallengeForm,
} from '../challenge-form'
import { isContainerType } from '../flag-rules'
import { ChallengeFlags } from './challenge-flags'
import { ChallengePreview } from './challenge-preview'
import { ContainerFields } from './container-fields'
import { HintsField } from './hints-field'
import { ReadinessPanel } from './readiness-panel'
import { ScoreCurveChart } from './score-curve-chart'
import '@mantine/core/styles/Grid.css'
import '@mantine/core/styles/NumberInput.css'
import '@mantine/core/styles/SimpleGrid.css'
import '@mantine/core/styles/Switch.css'
import '@mantine/core/styles/Combobox.css'
import '@mantine/core/styles/Badge.css'

function ChallengeNav({ gameId, challengeId }: { gameId: number; challengeId: number }) {
  const { t } = useTranslation()
  const { data } = useEditChallenges(gameId)
  const { previous, next, index } = neighbours(data ?? [], challengeId)
  return (
    <Group
      justify="space-between"
      gap="xs"
      wrap="nowrap"
      component="nav"
      aria-label={t('admin.challenge.nav')}
    >
      {previous ? (
        <Button
          component={Link}
          to={paths.admin.challenge(gameId, previous.id)}
          variant="subtle"
          size="xs"
          leftSection={<IconArrowLeft size={14} aria-hidden />}
          aria-label={t('admin.challenge.previous_named', { title: previous.title })}
          maw="45%"
        >
          <Text span size="xs" truncate>
            {previous.title}
          </Text>
        </Button>
      ) : (
        <span />
      )}
      {data && index >= 0 && (
        <Text size="xs" c="dimmed">
          {index + 1} / {data.length}
        </Text>
      )}
      {next ? (
        <Button
          component={Link}
          to={paths.admin.challenge(gameId, next.id)}
          variant="subtle"
          size="xs"
          rightSection={<IconArrowRight size={14} aria-hidden />}
          aria-label={t('admin.challenge.next_named', { title: next.title })}
          maw="45%"
        >
          <Text span size="xs" truncate>
            {next.title}
          </Text>
        </Button>
      ) : (
        <span />
      )}
    </Group>
  )
}

/** Every setting of one challenge, a preview as players see it, and the score curve. */
export function ChallengeEditor({ gameId, challenge }: { gameId: number; challenge: EditChallenge }) {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const { update, remove } = useChallengeActions(gameId)
  const { mutate: refresh } = useEditChallenge(gameId, challenge.id)
  const [form, setForm] = useState<ChallengeForm>(() => toChallengeForm(challenge))
  const [errors, setErrors] = useState<ChallengeFormErrors>({})
  // The server's refusal stays above the save button after its toast has gone.
  const { busy, run, failure: serverError } = useSubmit()
  const dirty = JSON.stringify(form) !== JSON.stringify(toChallengeForm(challenge))
  const container = isContainerType(challenge.type)
  const scheduled = useFeature('scheduledRelease') === true
  // The neighbour links, the flags page and the tabs would drop the typed changes: ask first.
  useUnsavedGuard(dirty && !busy, {
    title: t('admin.leave_title'),
    message: t('admin.challenge.leave_body'),
    confirmLabel: t('admin.leave'),
  })

  const set = <K extends keyof ChallengeForm>(key: K, value: ChallengeForm[K]) => {
    setForm((f) => ({ ...f, [key]: value }))
    if (errors[key]) setErrors((e) => ({ ...e, [key]: undefined }))
  }
  const err = (k: keyof ChallengeForm) => (errors[k] ? t(errors[k]!) : undefined)
  const rate = Number(form.minScorePercent) / 100
  const original = Number(form.originalScore)
  const difficulty = Number(form.difficulty)

  const save = async (e: FormEvent) => {
    e.preventDefault()
    // One save at a time, so two cannot answer out of order (the loading button also blocks Enter).
    if (busy) return
    const found = validateChallengeForm(form, challenge.type)
    setErrors(found)
    if (Object.keys(found).length) {
      notify.error(t('admin.game.fix_errors'))
      return
    }
    const sent = form
    await run(
      async () => {
        const updated = await update(challenge.id, challengeBody(sent, challenge.type, scheduled))
        setForm((current) => afterSave(current, sent, toChallengeForm(updated)))
      },
      { success: t('admin.challenge.saved') },
    )
  }

  const del = async () => {
    const ok = await confirm({
      title: t('admin.challenge.delete'),
      message: t('admin.challenge.delete_confirm', { title: challenge.title }),
      confirmLabel: t('admin.challenge.delete'),
      danger: true,
    })
    if (!ok) return
    try {
      await remove(challenge.id)
      notify.success(t('admin.challenge.deleted', { title: challenge.title }))
      navigate(paths.admin.game(gameId, 'challenges'))
    } catch (error) {
      notify.error(error)
    }
  }

  return (
    <Stack gap="md">
      <ChallengeNav gameId={gameId} challengeId={challenge.id} />
      <Group justify="space-between" gap="sm">
        <Group gap="xs">
          <Badge color={TYPE_COLOR[challenge.type]} variant="outline">
            {t(`admin.challenge_type.${challenge.type}`)}
          </Badge>
          <Badge color={challenge.isEnabled ? 'teal' : 'gray'} variant="light">
            {challenge.isEnabled ? t('admin.challenge.enabled') : t('admin.challenge.disabled')}
          </Badge>
          <Text size="sm" c="dimmed">
            {t('admin.challenge.solved_count', { count: challenge.acceptedCount })}
          </Text>
        </Group>
        <Button
          component={Link}
          to={paths.admin.flags(gameId, challenge.id)}
          variant="light"
          leftSection={<IconFlag size={16} aria-hidden />}
        >
          {t('admin.challenge.flags_link')}
        </Button>
      </Group>
      <ReadinessPanel gameId={gameId} challenge={challenge} />
      <form onSubmit={save} noValidate aria-label={t('admin.challenge.form_label')} className={classes.form}>
        <Grid gap="md">
          <Grid.Col span={{ base: 12, lg: 7 }}>
            <Stack gap="md">
              <Section title={t('admin.challenge.section.text')}>
                <SimpleGrid cols={{ base: 1, sm: 2 }}>
                  <TextInput
                    label={t('admin.challenge.field.title')}
                    required
                    maxLength={128}
                    value={form.title}
                    onChange={(e) => set('title', e.currentTarget.value)}
                    error={err('title')}
                  />
                  <Select
                    label={t('admin.challenge.field.category')}
                    data={ChallengeCategoryValues.map((c) => ({ value: c, label: t(`admin.category.${c}`) }))}
                    value={form.category}
                    onChange={(v) => v && set('category', v as ChallengeCategory)}
                    allowDeselect={false}
                    leftSection={
                      <span
                        aria-hidden
                        style={{
                          width: 10,
                          height: 10,
                          borderRadius: 5,
                          background: `var(--mantine-color-${CATEGORY_COLOR[form.category]}-filled)`,
                        }}
                      />
                    }
                  />
                </SimpleGrid>
                <MarkdownField
                  label={t('admin.challenge.field.content')}
                  value={form.content}
                  onChange={(v) => set('content', v)}
                  minRows={10}
                />
                <HintsField value={form.hints} onChange={(v) => set('hints', v)} />
                {challenge.type === 'DynamicAttachment' && (
                  <TextInput
                    label={t('admin.challenge.field.file_name')}
                    description={t('admin.challenge.field.file_name_hint')}
                    maxLength={255}
                    value={form.fileName}
                    onChange={(e) => set('fileName', e.currentTarget.value)}
                    error={err('fileName')}
                  />
                )}
              </Section>
              {container && (
                <Section title={t('admin.challenge.section.container')}>
                  <ContainerFields
                    gameId={gameId}
                    challenge={challenge}
                    unsaved={dirty}
                    form={form}
                    errors={errors}
                    set={set}
                  />
                </Section>
              )}
            </Stack>
          </Grid.Col>
          <Grid.Col span={{ base: 12, lg: 5 }}>
            <Stack gap="md">
              {scheduled && (
                <Section title={t('admin.challenge.schedule.title')}>
                  <Text size="sm" c="dimmed">
                    {t('admin.challenge.schedule.hint')}
                  </Text>
                  <SimpleGrid cols={{ base: 1, xs: 2 }}>
                    <TextInput
                      type="datetime-local"
                      label={t('admin.challenge.schedule.open_at')}
                      description={t('admin.challenge.schedule.open_at_hint')}
                      value={form.openAt}
                      onChange={(e) => set('openAt', e.currentTarget.value)}
                      error={err('openAt')}
                    />
                    <TextInput
                      type="datetime-local"
                      label={t('admin.challenge.schedule.close_at')}
                      description={t('admin.challenge.schedule.close_at_hint')}
                      value={form.closeAt}
                      onChange={(e) => set('closeAt', e.currentTarget.value)}
                      error={err('closeAt')}
                    />
                  </SimpleGrid>
                </Section>
              )}
              <Section title={t('admin.challenge.section.scoring')}>
                <SimpleGrid cols={{ base: 1, xs: 2 }}>
                  <NumberInput
                    label={t('admin.challenge.field.original_score')}
                    min={0}
                    max={1_000_000}
                    allowDecimal={false}
                    value={form.originalScore}
                    onChange={(v) => set('originalScore', v)}
                    error={err('originalScore')}
                  />
                  <NumberInput
                    label={t('admin.challenge.field.min_score_rate')}
                    description={t('admin.challenge.field.min_score_rate_hint')}
                    min={0}
                    max={100}
                    decimalScale={1}
                    suffix=" %"
                    value={form.minScorePercent}
                    onChange={(v) => set('minScorePercent', v)}
                    error={err('minScorePercent')}
                  />
                  <NumberInput
                    label={t('admin.challenge.field.difficulty')}
                    description={t('admin.challenge.field.difficulty_hint')}
                    min={0}
                    decimalScale={2}
                    step={0.5}
                    value={form.difficulty}
                    onChange={(v) => set('difficulty', v)}
                    error={err('difficulty')}
                  />
                  <NumberInput
                    label={t('admin.challenge.field.submission_limit')}
                    description={t('admin.game.field.zero_no_limit')}
                    min={0}
                    max={10_000}
                    allowDecimal={false}
                    value={form.submissionLimit}
                    onChange={(v) => set('submissionLimit', v)}
                    error={err('submissionLimit')}
                  />
                </SimpleGrid>
                <Switch
                  label={t('admin.challenge.field.disable_blood_bonus')}
                  description={t('admin.challenge.field.disable_blood_bonus_hint')}
                  checked={form.disableBloodBonus}
                  onChange={(e) => set('disableBloodBonus', e.currentTarget.checked)}
                />
                <ScoreCurveChart originalScore={original} minScoreRate={rate} difficulty={difficulty} />
              </Section>
              <ChallengePreview
                title={form.title}
                category={form.category}
                score={
                  Number.isFinite(original) && Number.isFinite(rate) && Number.isFinite(difficulty)
                    ? dynamicScore(original, rate, difficulty, challenge.acceptedCount)
                    : 0
                }
                content={form.content}
                hints={form.hints}
              />
            </Stack>
          </Grid.Col>
        </Grid>
        {serverError && (
          <Alert color="red" title={t('admin.challenge.save_failed')} role="alert" mt="md">
            {serverError}
          </Alert>
        )}
        <div className={classes.bar} style={{ marginTop: 'var(--mantine-spacing-md)' }}>
          <Button
            color="red"
            variant="light"
            leftSection={<IconTrash size={16} aria-hidden />}
            onClick={del}
            mr="auto"
          >
            {t('admin.challenge.delete')}
          </Button>
          <Text size="sm" c="dimmed" aria-live="polite">
            {dirty ? t('admin.unsaved') : ''}
          </Text>
          <Button type="submit" loading={busy} leftSection={<IconDeviceFloppy size={16} aria-hidden />}>
            {t('common.button.save')}
          </Button>
        </div>
      </form>
      {/* Flags and the attachment, saved as they change: the rest of a challenge on one screen. */}
      <Stack gap="md">
        <ChallengeFlags gameId={gameId} challenge={challenge} onChanged={() => void refresh()} />
      </Stack>
    </Stack>
  )
}
