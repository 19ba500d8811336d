import { ActionIcon, Avatar, Badge, Group, Stack, Text, Tooltip } from '@mantine/core'
import { IconCrown, IconUserMinus, IconUserUp } from '@tabler/icons-react'
import { useState } from 'react'
import { confirm } from '@/components/confirm'
import { useTranslation } from '@/i18n'
import { notify } from '@/utils/notify'
import { type Team, type TeamMember, useTeamActions } from '../api'
import { sortMembers } from '../team-rules'

/** The members, captain first; the captain may hand over the captaincy or remove someone. */
export function TeamMembers({
  team,
  canManage,
  userId,
}: {
  team: Team
  canManage: boolean
  userId?: string
}) {
  const { t } = useTranslation()
  const { transfer, kick } = useTeamActions()
  const [busy, setBusy] = useState<string | null>(null)

  const act = async (member: TeamMember, kind: 'transfer' | 'kick') => {
    const ok = await confirm({
      title: kind === 'transfer' ? t('team.members.transfer') : t('team.members.kick'),
      message:
        kind === 'transfer'
          ? t('team.members.transfer_confirm', { name: member.userName, team: team.name })
          : t('team.members.kick_confirm', { name: member.userName, team: team.name }),
      confirmLabel: kind === 'transfer' ? t('team.members.transfer') : t('team.members.kick'),
      danger: true,
    })
    if (!ok) return
    setBusy(member.id)
    try {
      if (kind === 'transfer') await transfer(team.id, member.id)
      else await kick(team.id, member.id)
      notify.success(
        kind === 'transfer'
          ? t('team.members.transferred', { name: member.userName })
          : t('team.members.kicked', { name: member.userName }),
      )
    } catch (err) {
      notify.error(err)
    } finally {
      setBusy(null)
    }
  }

  return (
    <Stack
      gap={0}
      component="ul"
      p={0}
      m={0}
      style={{ listStyle: 'none' }}
      aria-label={t('team.members.title')}
    >
      {sortMembers(team.members).map((m) => (
        <Group
          key={m.id}
          component="li"
          justify="space-between"
          wrap="nowrap"
          py={8}
          style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}
        >
          <Group gap="sm" wrap="nowrap" miw={0}>
            <Avatar src={m.avatar} name={m.userName} alt="" radius="xl" />
            <Stack gap={0} miw={0}>
              <Group gap={6} wrap="nowrap">
                <Text fw={600} truncate>
                  {m.userName}
                </Text>
                {m.id === userId && (
                  <Text span size="xs" c="dimmed">
                    {t('team.members.you')}
                  </Text>
                )}
              </Group>
              {m.bio && (
                <Text size="xs" c="dimmed" truncate>
                  {m.bio}
                </Text>
              )}
            </Stack>
          </Group>
          <Group gap={4} wrap="nowrap">
            {m.captain && (
              <Badge color="yellow" variant="light" leftSection={<IconCrown size={12} aria-hidden />}>
                {t('team.members.captain')}
              </Badge>
            )}
            {canManage && !m.captain && (
              <>
                <Tooltip label={t('team.members.transfer')}>
                  <ActionIcon
                    variant="subtle"
                    onClick={() => act(m, 'transfer')}
                    loading={busy === m.id}
                    aria-label={t('team.members.transfer_to', { name: m.userName })}
                  >
                    <IconUserUp size={18} aria-hidden />
                  </ActionIcon>
                </Tooltip>
                <Tooltip label={t('team.members.kick')}>
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    onClick={() => act(m, 'kick')}
                    loading={busy === m.id}
                    aria-label={t('team.members.kick_named', { name: m.userName })}
                  >
                    <IconUserMinus size={18} aria-hidden />
                  </ActionIcon>
                </Tooltip>
              </>
            )}
          </Group>
        </Group>
      ))}
    </Stack>
  )
}
