import {
  ActionIcon,
  Alert,
  Button,
  Group,
  Image,
  NumberInput,
  SimpleGrid,
  Stack,
  Switch,
  TagsInput,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core'
import { useClipboard } from '@mantine/hooks'
import { IconCopy, IconDeviceFloppy, IconTrash } from '@tabler/icons-react'
import { type FormEvent, useState } from 'react'
import { useNavigate } from 'react-router'
import { confirm } from '@/components/confirm'
import { ImageUpload } from '@/components/image-upload'
import { MarkdownField } from '@/components/markdown-field'
import { MONO_INPUT } from '@/components/mono-input'
import { Section } from '@/components/section'
import classes from '@/components/sticky-bar.module.css'
import { FreezeFields } from '@/features/freeze/components/freeze-fields'
import { paths } from '@/features/paths'
import { useSubmit } from '@/hooks/use-submit'
import { useUnsavedGuard } from '@/hooks/use-unsaved-guard'
import { useTranslation } from '@/i18n'
import { notify } from '@/utils/notify'
import { afterSave } from '../after-save'
import { type EditGame, posterUrl, useGameActions } from '../api'
import {
  DIVISION_MAX,
  fromForm,
  type GameForm,
  type GameFormErrors,
  INVITE_CODE_MAX,
  TITLE_MAX,
  toForm,
  validateGameForm,
} from '../game-form'
import { BloodBonusFields } from './blood-bonus-fields'
import '@mantine/core/styles/Switch.css'
import '@mantine/core/styles/NumberInput.css'
import '@mantine/core/styles/SimpleGrid.css'
import '@mantine/core/styles/Combobox.css'
import '@mantine/core/styles/Pill.css'
import '@mantine/core/styles/PillsInput.css'

/** Every field of a game, checked before sending; also the poster, the public key and deletion. */
export function GameInfoForm({ game }: { game: EditGame }) {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const actions = useGameActions()
  const clipboard = useClipboard()
  const [form, setForm] = useState<GameForm>(() => toForm(game))
  const [errors, setErrors] = useState<GameFormErrors>({})
  // The server's refusal stays above the save button after its toast has gone.
  const { busy, run, failure: serverError } = useSubmit()
  const dirty = JSON.stringify(form) !== JSON.stringify(toForm(game))
  // A tab or link away would drop the typed changes: ask first.
  useUnsavedGuard(dirty && !busy, {
    title: t('admin.leave_title'),
    message: t('admin.game.leave_body'),
    confirmLabel: t('admin.leave'),
  })

  const set = <K extends keyof GameForm>(key: K, value: GameForm[K]) => {
    setForm((f) => ({ ...f, [key]: value }))
    if (errors[key]) setErrors((e) => ({ ...e, [key]: undefined }))
  }
  const err = (key: keyof GameForm) => (errors[key] ? t(errors[key]!) : undefined)

  const save = async (e: FormEvent) => {
    e.preventDefault()
    // One save at a time, so two cannot answer out of order (the loading button also blocks Enter).
    if (busy) return
    const found = validateGameForm(form)
    setErrors(found)
    if (Object.keys(found).length) {
      notify.error(t('admin.game.fix_errors'))
      return
    }
    const sent = form
    await run(
      async () => {
        const updated = await actions.update(game.id, fromForm(sent, game))
        setForm((current) => afterSave(current, sent, toForm(updated)))
      },
      { success: t('admin.game.saved') },
    )
  }

  const deleteGame = async () => {
    const ok = await confirm({
      title: t('admin.game.delete'),
      message: t('admin.game.delete_confirm', { title: game.title }),
      confirmLabel: t('admin.game.delete'),
      danger: true,
    })
    if (!ok) return
    try {
      await actions.remove(game.id)
      notify.success(t('admin.game.deleted', { title: game.title }))
      navigate(paths.admin.games)
    } catch (error) {
      notify.error(error)
    }
  }

  const deleteWriteups = async () => {
    const ok = await confirm({
      title: t('admin.game.delete_writeups'),
      message: t('admin.game.delete_writeups_confirm'),
      confirmLabel: t('admin.game.delete_writeups'),
      danger: true,
    })
    if (!ok) return
    try {
      await actions.deleteWriteups(game.id)
      notify.success(t('admin.game.writeups_deleted'))
    } catch (error) {
      notify.error(error)
    }
  }

  return (
    <form onSubmit={save} noValidate aria-label={t('admin.game.form_label')} className={classes.form}>
      <Stack gap="md">
        <Section title={t('admin.game.section.basics')}>
          <TextInput
            label={t('admin.game.field.title')}
            required
            maxLength={TITLE_MAX}
            value={form.title}
            onChange={(e) => set('title', e.currentTarget.value)}
            error={err('title')}
          />
          <Textarea
            label={t('admin.game.field.summary')}
            description={t('admin.game.field.summary_hint')}
            autosize
            minRows={2}
            value={form.summary}
            onChange={(e) => set('summary', e.currentTarget.value)}
          />
          <MarkdownField
            label={t('admin.game.field.content')}
            value={form.content}
            onChange={(v) => set('content', v)}
            minRows={8}
          />
          <Group align="flex-end" gap="md">
            {game.poster ? (
              <Image src={game.poster} alt={t('admin.game.field.poster')} w={240} radius="sm" />
            ) : (
              <Text size="sm" c="dimmed">
                {t('admin.game.field.no_poster')}
              </Text>
            )}
            <ImageUpload
              url={posterUrl(game.id)}
              method="PUT"
              label={t('admin.game.field.poster_upload')}
              onUploaded={() => actions.posterChanged(game.id)}
            />
          </Group>
        </Section>

        <Section title={t('admin.game.section.schedule')}>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              type="datetime-local"
              label={t('admin.game.field.start')}
              required
              value={form.start}
              onChange={(e) => set('start', e.currentTarget.value)}
              error={err('start')}
            />
            <TextInput
              type="datetime-local"
              label={t('admin.game.field.end')}
              required
              value={form.end}
              onChange={(e) => set('end', e.currentTarget.value)}
              error={err('end')}
            />
          </SimpleGrid>
          <Switch
            label={t('admin.game.field.practice_mode')}
            description={t('admin.game.field.practice_mode_hint')}
            checked={form.practiceMode}
            onChange={(e) => set('practiceMode', e.currentTarget.checked)}
          />
        </Section>

        <Section title={t('admin.game.freeze.section')}>
          <FreezeFields
            game={game}
            freezeAt={form.freezeAt}
            revealAt={form.revealAt}
            onChange={(field, value) => set(field, value)}
            errors={{ freezeAt: err('freezeAt'), revealAt: err('revealAt') }}
          />
        </Section>

        <Section title={t('admin.game.section.registration')}>
          <Switch
            label={t('admin.game.field.hidden')}
            description={t('admin.game.field.hidden_hint')}
            checked={form.hidden}
            onChange={(e) => set('hidden', e.currentTarget.checked)}
          />
          <Switch
            label={t('admin.game.field.accept_without_review')}
            description={t('admin.game.field.accept_without_review_hint')}
            checked={form.acceptWithoutReview}
            onChange={(e) => set('acceptWithoutReview', e.currentTarget.checked)}
          />
          <Text size="sm" fw={500} role="status">
            {form.acceptWithoutReview
              ? t('admin.game.field.review_state_on')
              : t('admin.game.field.review_state_off')}
          </Text>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label={t('admin.game.field.invite_code')}
              description={t('admin.game.field.invite_code_hint')}
              maxLength={INVITE_CODE_MAX}
              value={form.inviteCode}
              onChange={(e) => set('inviteCode', e.currentTarget.value)}
              error={err('inviteCode')}
            />
            <NumberInput
              label={t('admin.game.field.team_member_limit')}
              description={t('admin.game.field.zero_no_limit')}
              min={0}
              max={10_000}
              allowDecimal={false}
              value={form.teamMemberCountLimit}
              onChange={(v) => set('teamMemberCountLimit', v)}
              error={err('teamMemberCountLimit')}
            />
          </SimpleGrid>
          <TagsInput
            label={t('admin.game.field.divisions')}
            description={t('admin.game.field.divisions_hint', { max: DIVISION_MAX })}
            value={form.divisions}
            onChange={(v) => set('divisions', v)}
            error={err('divisions')}
            clearable
            splitChars={[',']}
          />
        </Section>

        <Section title={t('admin.game.section.playing')}>
          <NumberInput
            label={t('admin.game.field.container_limit')}
            description={t('admin.game.field.zero_no_limit')}
            min={0}
            max={10_000}
            allowDecimal={false}
            value={form.containerCountLimit}
            onChange={(v) => set('containerCountLimit', v)}
            error={err('containerCountLimit')}
            maw={320}
          />
          <BloodBonusFields
            value={form.bloodBonus}
            onChange={(v) => set('bloodBonus', v)}
            error={err('bloodBonus')}
          />
        </Section>

        <Section title={t('admin.game.section.writeups')}>
          <Switch
            label={t('admin.game.field.writeup_required')}
            description={t('admin.game.field.writeup_required_hint')}
            checked={form.writeupRequired}
            onChange={(e) => set('writeupRequired', e.currentTarget.checked)}
          />
          <TextInput
            type="datetime-local"
            label={t('admin.game.field.writeup_deadline')}
            value={form.writeupDeadline}
            onChange={(e) => set('writeupDeadline', e.currentTarget.value)}
            error={err('writeupDeadline')}
            disabled={!form.writeupRequired}
            maw={320}
          />
          <MarkdownField
            label={t('admin.game.field.writeup_note')}
            value={form.writeupNote}
            onChange={(v) => set('writeupNote', v)}
            minRows={3}
          />
        </Section>

        <Section title={t('admin.game.section.key')}>
          <TextInput
            label={t('admin.game.field.public_key')}
            description={t('admin.game.field.public_key_hint')}
            readOnly
            value={game.publicKey}
            styles={MONO_INPUT}
            rightSection={
              <ActionIcon
                variant="subtle"
                aria-label={t('admin.game.field.copy_public_key')}
                onClick={() => {
                  clipboard.copy(game.publicKey)
                  notify.success(t('admin.game.field.public_key_copied'))
                }}
              >
                <IconCopy size={16} aria-hidden />
              </ActionIcon>
            }
          />
        </Section>

        <Section title={t('admin.game.section.danger')} danger>
          <Group>
            <Button
              color="red"
              variant="light"
              leftSection={<IconTrash size={16} aria-hidden />}
              onClick={deleteWriteups}
            >
              {t('admin.game.delete_writeups')}
            </Button>
            <Button color="red" leftSection={<IconTrash size={16} aria-hidden />} onClick={deleteGame}>
              {t('admin.game.delete')}
            </Button>
          </Group>
        </Section>

        {serverError && (
          <Alert color="red" title={t('admin.game.save_failed')} role="alert">
            {serverError}
          </Alert>
        )}
        <div className={classes.bar}>
          <Text size="sm" c="dimmed" aria-live="polite">
            {dirty ? t('admin.unsaved') : ''}
          </Text>
          <Button type="submit" loading={busy} leftSection={<IconDeviceFloppy size={16} aria-hidden />}>
            {t('common.button.save')}
          </Button>
        </div>
      </Stack>
    </form>
  )
}
