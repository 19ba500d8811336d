import { Avatar, Button, Group, Stack, Text, Textarea, TextInput } from '@mantine/core'
import { type FormEvent, useState } from 'react'
import { ImageUpload } from '@/components/image-upload'
import { useSubmit } from '@/hooks/use-submit'
import { useTranslation } from '@/i18n'
import { type Team, teamAvatarUrl, useTeamActions } from '../api'
import { TEAM_BIO_MAX, TEAM_NAME_MAX } from '../team-rules'

/** Avatar, name and bio: editable by the captain, shown as text to the others. */
export function TeamProfileForm({ team, editable }: { team: Team; editable: boolean }) {
  const { t } = useTranslation()
  const { update, refresh } = useTeamActions()
  const [name, setName] = useState(team.name)
  const [bio, setBio] = useState(team.bio ?? '')
  const { busy, run } = useSubmit()
  const changed = name.trim() !== team.name || bio.trim() !== (team.bio ?? '')

  const save = async (e: FormEvent) => {
    e.preventDefault()
    if (!name.trim()) return
    await run(
      async () => {
        // The server always replaces the bio, so it is always sent.
        await update(team.id, { name: name.trim(), bio: bio.trim() || null })
      },
      { success: t('team.manage.saved') },
    )
  }

  if (!editable)
    return (
      <Group wrap="nowrap" align="flex-start">
        <Avatar src={team.avatar} name={team.name} alt="" size={64} radius="md" color="initials" />
        <Stack gap={4} miw={0}>
          <Text fw={700} size="lg" style={{ wordBreak: 'break-all' }}>
            {team.name}
          </Text>
          <Text size="sm" c={team.bio ? undefined : 'dimmed'}>
            {team.bio || t('team.card.no_bio')}
          </Text>
          <Text size="xs" c="dimmed">
            {t('team.manage.member_view')}
          </Text>
        </Stack>
      </Group>
    )

  return (
    <form onSubmit={save} noValidate>
      <Stack>
        <Group wrap="nowrap" align="center">
          <Avatar src={team.avatar} name={team.name} alt="" size={64} radius="md" color="initials" />
          <ImageUpload
            url={teamAvatarUrl(team.id)}
            method="PUT"
            label={t('team.manage.avatar')}
            onUploaded={() => refresh()}
          />
        </Group>
        <TextInput
          label={t('team.field.name')}
          description={t('team.field.name_hint', { max: TEAM_NAME_MAX })}
          required
          maxLength={TEAM_NAME_MAX}
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          error={name.trim() ? undefined : t('team.field.name_required')}
        />
        <Textarea
          label={t('team.field.bio')}
          description={t('team.field.bio_hint', { count: bio.length, max: TEAM_BIO_MAX })}
          maxLength={TEAM_BIO_MAX}
          autosize
          minRows={2}
          value={bio}
          onChange={(e) => setBio(e.currentTarget.value)}
        />
        <Group justify="flex-end">
          <Button type="submit" loading={busy} disabled={!changed || !name.trim()}>
            {t('common.button.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  )
}
