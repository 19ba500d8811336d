import { Alert, Button, Group, Stack, Textarea, TextInput } from '@mantine/core'
import { IconInfoCircle } from '@tabler/icons-react'
import { type FormEvent, useState } from 'react'
import { useSubmit } from '@/hooks/use-submit'
import { useTranslation } from '@/i18n'
import { useTeamActions } from '../api'
import { MAX_CAPTAINED, TEAM_BIO_MAX, TEAM_NAME_MAX } from '../team-rules'
import { TeamModal } from './team-modal'

/** Name and bio of a new team; explains up front when the user already captains the most teams. */
export function CreateTeamModal({
  opened,
  onClose,
  captained,
}: {
  opened: boolean
  onClose: () => void
  /** How many teams the user captains now. */
  captained: number
}) {
  const { t } = useTranslation()
  const { create } = useTeamActions()
  const [name, setName] = useState('')
  const [bio, setBio] = useState('')
  // The refusal is said in the form too: the toast goes away, the reason should not.
  const { busy, run, failure: refusal, clearFailure } = useSubmit()
  const full = captained >= MAX_CAPTAINED

  const close = () => {
    setName('')
    setBio('')
    clearFailure()
    onClose()
  }

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    if (!name.trim() || full) return
    const done = await run(() => create({ name: name.trim(), bio: bio.trim() || null }), {
      success: t('team.create.done', { name: name.trim() }),
    })
    if (done) close()
  }

  return (
    <TeamModal opened={opened} onClose={close} title={t('team.create.title')}>
      <form onSubmit={submit} noValidate>
        <Stack>
          {full && (
            <Alert color="yellow" icon={<IconInfoCircle aria-hidden />} title={t('team.create.limit_title')}>
              {t('team.create.limit_body', { max: MAX_CAPTAINED })}
            </Alert>
          )}
          <TextInput
            label={t('team.field.name')}
            description={t('team.field.name_hint', { max: TEAM_NAME_MAX })}
            required
            maxLength={TEAM_NAME_MAX}
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            disabled={full}
            data-autofocus
          />
          <Textarea
            label={t('team.field.bio')}
            description={t('team.field.bio_hint', { count: bio.length, max: TEAM_BIO_MAX })}
            maxLength={TEAM_BIO_MAX}
            autosize
            minRows={2}
            value={bio}
            onChange={(e) => setBio(e.currentTarget.value)}
            disabled={full}
          />
          {refusal && (
            <Alert color="red" role="alert">
              {refusal}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {t('common.button.cancel')}
            </Button>
            <Button type="submit" loading={busy} disabled={full || !name.trim()}>
              {t('team.create.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </TeamModal>
  )
}
