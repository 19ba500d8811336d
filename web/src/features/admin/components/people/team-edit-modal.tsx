import { Avatar, Button, Group, Stack, Text, Textarea, TextInput } from '@mantine/core'
import { IconCrown } from '@tabler/icons-react'
import { type FormEvent, useEffect, useState } from 'react'
import { EditModal } from '@/components/edit-modal'
import { useSubmit } from '@/hooks/use-submit'
import { useTranslation } from '@/i18n'
import { useTeamActions } from '../../teams-api'
import {
  type AdminTeam,
  type FieldError,
  sortMembers,
  TEAM_BIO_MAX,
  type TeamForm,
  teamFormErrors,
  teamFormOf,
  toTeamUpdate,
} from '../../user-form'
import classes from './people.module.css'

/** A team's name and bio; its members are listed (captain first) but changed by the team itself. */
export function TeamEditModal({ team, onClose }: { team: AdminTeam | null; onClose: () => void }) {
  const { t } = useTranslation()
  const { update } = useTeamActions()
  const [form, setForm] = useState<TeamForm | null>(null)
  const [errors, setErrors] = useState<Partial<Record<keyof TeamForm, FieldError>>>({})
  const { busy, run } = useSubmit()

  useEffect(() => {
    if (team) {
      setForm(teamFormOf(team))
      setErrors({})
    }
  }, [team])

  const set = (key: keyof TeamForm) => (e: { currentTarget: { value: string } }) => {
    const value = e.currentTarget.value
    setForm((f) => (f ? { ...f, [key]: value } : f))
    setErrors((x) => ({ ...x, [key]: undefined }))
  }
  const errorText = (error?: FieldError) => error && t(`admin.users.error.${error.code}`, error.params)

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (!team || !form) return
    const found = teamFormErrors(form)
    setErrors(found)
    if (Object.keys(found).length) return
    const done = await run(() => update(team.id, toTeamUpdate(form)), {
      success: t('admin.teams.saved', { name: form.name.trim() }),
    })
    if (!done) return
    onClose()
  }

  return (
    <EditModal
      opened={team !== null}
      onClose={onClose}
      size="md"
      title={t('admin.teams.edit_title', { name: team?.name ?? '' })}
    >
      {form && team && (
        <form onSubmit={submit} noValidate>
          <Stack gap="md">
            <TextInput
              label={t('admin.teams.field.name')}
              required
              data-autofocus
              autoComplete="off"
              value={form.name}
              onChange={set('name')}
              error={errorText(errors.name)}
            />
            <Textarea
              label={t('admin.teams.field.bio')}
              description={t('admin.teams.field.bio_hint', { count: form.bio.length, max: TEAM_BIO_MAX })}
              autosize
              minRows={2}
              maxRows={4}
              value={form.bio}
              onChange={set('bio')}
              error={errorText(errors.bio)}
            />
            <div>
              <Text size="sm" fw={500} id="team-edit-members">
                {t('admin.teams.members', { count: team.members.length })}
              </Text>
              <Text size="xs" c="dimmed" mb={6}>
                {t('admin.teams.members_hint')}
              </Text>
              <Stack component="ul" gap={6} className={classes.members} aria-labelledby="team-edit-members">
                {sortMembers(team.members).map((m) => (
                  <Group component="li" key={m.id} gap="sm" wrap="nowrap">
                    <Avatar src={m.avatar} name={m.userName} color="initials" alt="" size="sm" radius="xl" />
                    <Text size="sm" className={classes.wrap}>
                      {m.userName}
                    </Text>
                    {m.captain && (
                      <Group gap={4} wrap="nowrap" c="yellow">
                        <IconCrown size={14} aria-hidden />
                        <Text span size="xs">
                          {t('admin.teams.captain')}
                        </Text>
                      </Group>
                    )}
                  </Group>
                ))}
              </Stack>
            </div>
            <Group justify="flex-end">
              <Button variant="default" onClick={onClose}>
                {t('common.button.cancel')}
              </Button>
              <Button type="submit" loading={busy}>
                {t('common.button.save')}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </EditModal>
  )
}
