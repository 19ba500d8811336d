import { Alert, Button, Divider, Group, Stack, Title } from '@mantine/core'
import { IconDoorExit, IconLock, IconTrash } from '@tabler/icons-react'
import { confirm } from '@/components/confirm'
import { useSubmit } from '@/hooks/use-submit'
import { useTranslation } from '@/i18n'
import { type Team, useTeamActions } from '../api'
import { isCaptain } from '../team-rules'
import { InviteCodePanel } from './invite-code-panel'
import { TeamMembers } from './team-members'
import { TeamModal } from './team-modal'
import { TeamProfileForm } from './team-profile-form'
import '@mantine/core/styles/Divider.css'

/**
 * Everything about one team: profile, invite code and members for the captain; the member list
 * and "leave" for the others. A locked team says why member changes are refused.
 */
export function TeamManageModal({
  team,
  userId,
  onClose,
}: {
  /** The team to manage; null keeps the modal closed. */
  team: Team | null
  userId?: string
  onClose: () => void
}) {
  const { t } = useTranslation()
  const { leave, disband } = useTeamActions()
  const { busy, run } = useSubmit()
  const captain = team ? isCaptain(team, userId) : false

  const quit = async () => {
    if (!team) return
    const ok = await confirm({
      title: captain ? t('team.manage.disband') : t('team.manage.leave'),
      message: captain
        ? t('team.manage.disband_confirm', { name: team.name })
        : t('team.manage.leave_confirm', { name: team.name }),
      confirmLabel: captain ? t('team.manage.disband') : t('team.manage.leave'),
      danger: true,
    })
    if (!ok) return
    const done = await run(() => (captain ? disband(team.id) : leave(team.id)), {
      success: captain
        ? t('team.manage.disbanded', { name: team.name })
        : t('team.manage.left', { name: team.name }),
    })
    if (!done) return
    onClose()
  }

  return (
    <TeamModal
      opened={!!team}
      onClose={onClose}
      title={team ? t('team.manage.title', { name: team.name }) : ''}
    >
      {team && (
        <Stack gap="lg">
          {team.locked && (
            <Alert color="orange" icon={<IconLock aria-hidden />} title={t('team.manage.locked_title')}>
              {t('team.manage.locked_body')}
            </Alert>
          )}
          <TeamProfileForm key={`${team.name}\n${team.bio}`} team={team} editable={captain} />
          {captain && (
            <>
              <Divider />
              <section aria-labelledby="team-invite-heading">
                <Title order={3} size="h5" id="team-invite-heading" mb="xs">
                  {t('team.invite.title')}
                </Title>
                <InviteCodePanel teamId={team.id} />
              </section>
            </>
          )}
          <Divider />
          <section aria-labelledby="team-members-heading">
            <Title order={3} size="h5" id="team-members-heading" mb="xs">
              {t('team.members.title')} ({team.members.length})
            </Title>
            <TeamMembers team={team} canManage={captain} userId={userId} />
          </section>
          <Group justify="space-between">
            <Button
              color="red"
              variant="light"
              onClick={quit}
              loading={busy}
              leftSection={
                captain ? <IconTrash size={16} aria-hidden /> : <IconDoorExit size={16} aria-hidden />
              }
            >
              {captain ? t('team.manage.disband') : t('team.manage.leave')}
            </Button>
            <Button variant="default" onClick={onClose}>
              {t('common.button.close')}
            </Button>
          </Group>
        </Stack>
      )}
    </TeamModal>
  )
}
