import { Button, Center, EmptyState, Group, Loader, SimpleGrid, Stack, Title } from '@mantine/core'
import { IconLogin2, IconPlus, IconUsersGroup } from '@tabler/icons-react'
import { useState } from 'react'
import { LoadFailed } from '@/components/load-failed'
import { useUser } from '@/features/account/api'
import { useTranslation } from '@/i18n'
import { useMyTeams } from '../api'
import { captainedCount } from '../team-rules'
import { CreateTeamModal } from './create-team-modal'
import { JoinTeamModal } from './join-team-modal'
import { TeamCard } from './team-card'
import { TeamManageModal } from './team-manage-modal'
import '@mantine/core/styles/SimpleGrid.css'
import '@mantine/core/styles/EmptyState.css'

/** The Teams page body: my teams as cards, with create, join and a manage view per team. */
export function TeamsView() {
  const { t } = useTranslation()
  const { user } = useUser()
  const { data: teams, error, isLoading, mutate } = useMyTeams()
  const [creating, setCreating] = useState(false)
  const [joining, setJoining] = useState(false)
  const [managedId, setManagedId] = useState<number | null>(null)
  // The list stays the source of truth, so the open team follows every refresh (and a team
  // that is gone closes the view).
  const managed = teams?.find((team) => team.id === managedId) ?? null

  const actions = (
    <Group gap="sm" grow preventGrowOverflow={false} w={{ base: '100%', xs: 'auto' }}>
      <Button
        variant="light"
        leftSection={<IconLogin2 size={18} aria-hidden />}
        onClick={() => setJoining(true)}
      >
        {t('team.join.open')}
      </Button>
      <Button leftSection={<IconPlus size={18} aria-hidden />} onClick={() => setCreating(true)}>
        {t('team.create.open')}
      </Button>
    </Group>
  )

  let body: React.ReactNode
  if (isLoading && !teams)
    body = (
      <Center mih={200}>
        <Loader aria-label={t('common.loading')} />
      </Center>
    )
  else if (error && !teams)
    body = <LoadFailed title={t('team.list.load_failed')} error={error} onRetry={() => mutate()} />
  else if (!teams?.length)
    body = (
      <EmptyState
        mt="xl"
        icon={<IconUsersGroup size={32} aria-hidden />}
        title={t('team.list.empty_title')}
        description={t('team.list.empty_body')}
      />
    )
  else
    body = (
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        {teams.map((team) => (
          <TeamCard key={team.id} team={team} userId={user?.userId} onManage={() => setManagedId(team.id)} />
        ))}
      </SimpleGrid>
    )

  return (
    <Stack gap="lg" maw={1100} mx="auto">
      <Group justify="space-between" align="center">
        <Title order={1}>{t('team.title')}</Title>
        {actions}
      </Group>
      {body}
      <CreateTeamModal
        opened={creating}
        onClose={() => setCreating(false)}
        captained={captainedCount(teams ?? [], user?.userId)}
      />
      <JoinTeamModal opened={joining} onClose={() => setJoining(false)} />
      <TeamManageModal team={managed} userId={user?.userId} onClose={() => setManagedId(null)} />
    </Stack>
  )
}
