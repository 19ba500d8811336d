import { ActionIcon, Avatar, Badge, Button, Group, Paper, Stack, Text, Title, Tooltip } from '@mantine/core'
import { useDebouncedValue } from '@mantine/hooks'
import { IconCrown, IconLock, IconLockOpen, IconUsersGroup } from '@tabler/icons-react'
import { useRef, useState } from 'react'
import { confirm } from '@/components/confirm'
import { DataState } from '@/components/data-state'
import { DeleteAction, EditAction } from '@/components/row-actions'
import { useTranslation } from '@/i18n'
import { notify } from '@/utils/notify'
import { PEOPLE_PAGE, pageCount, SEARCH_LIMIT, searchHint } from '../../admin-lists'
import { useTeamActions, useTeamList } from '../../teams-api'
import { type AdminTeam, sortMembers } from '../../user-form'
import { ListPager } from './list-pager'
import classes from './people.module.css'
import { SearchField } from './search-field'
import { TeamEditModal } from './team-edit-modal'
import '@mantine/core/styles/Avatar.css'
import '@mantine/core/styles/Badge.css'

function TeamItem({
  team,
  onEdit,
  onRemoved,
}: {
  team: AdminTeam
  onEdit: (team: AdminTeam) => void
  onRemoved: () => void
}) {
  const { t } = useTranslation()
  const actions = useTeamActions()
  const [busy, setBusy] = useState<'lock' | 'delete' | null>(null)
  const name = team.name
  const members = sortMembers(team.members)

  const toggleLock = async () => {
    setBusy('lock')
    try {
      await actions.setLocked(team.id, !team.locked)
      notify.success(t(team.locked ? 'admin.teams.unlocked_done' : 'admin.teams.locked_done', { name }))
    } catch (err) {
      notify.error(err)
    } finally {
      setBusy(null)
    }
  }

  const remove = async () => {
    const ok = await confirm({
      title: t('admin.teams.delete'),
      message: t('admin.teams.delete_confirm', { name, count: team.members.length }),
      confirmLabel: t('admin.teams.delete'),
      danger: true,
    })
    if (!ok) return
    setBusy('delete')
    try {
      await actions.remove(team.id)
      notify.success(t('admin.teams.deleted', { name }))
      onRemoved()
    } catch (err) {
      notify.error(err)
    } finally {
      setBusy(null)
    }
  }

  return (
    <Paper component="li" withBorder radius="md" p={{ base: 'sm', sm: 'md' }}>
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
          <Group gap="sm" wrap="nowrap" miw={0}>
            <Avatar src={team.avatar} name={name} color="initials" alt="" radius="md" size="lg" />
            <Stack gap={4} miw={0}>
              <Group gap="xs" wrap="wrap">
                <Title order={2} size="h5" className={classes.wrap}>
                  {name}
                </Title>
                <Text span size="xs" c="dimmed">
                  #{team.id}
                </Text>
              </Group>
              <Badge
                size="sm"
                variant="light"
                color={team.locked ? 'orange' : 'gray'}
                leftSection={
                  team.locked ? <IconLock size={12} aria-hidden /> : <IconLockOpen size={12} aria-hidden />
                }
                w="fit-content"
              >
                {t(team.locked ? 'admin.teams.locked' : 'admin.teams.unlocked')}
              </Badge>
            </Stack>
          </Group>
          <Group gap={2} wrap="nowrap">
            <Button
              size="xs"
              variant="light"
              color={team.locked ? 'teal' : 'orange'}
              loading={busy === 'lock'}
              onClick={toggleLock}
              leftSection={
                team.locked ? <IconLockOpen size={14} aria-hidden /> : <IconLock size={14} aria-hidden />
              }
              aria-label={t(team.locked ? 'admin.teams.unlock_named' : 'admin.teams.lock_named', { name })}
              visibleFrom="xs"
            >
              {t(team.locked ? 'admin.teams.unlock' : 'admin.teams.lock')}
            </Button>
            <ActionIcon
              variant="subtle"
              color={team.locked ? 'teal' : 'orange'}
              loading={busy === 'lock'}
              onClick={toggleLock}
              aria-label={t(team.locked ? 'admin.teams.unlock_named' : 'admin.teams.lock_named', { name })}
              title={t(team.locked ? 'admin.teams.unlock' : 'admin.teams.lock')}
              hiddenFrom="xs"
            >
              {team.locked ? <IconLockOpen size={16} aria-hidden /> : <IconLock size={16} aria-hidden />}
            </ActionIcon>
            <EditAction
              label={t('admin.teams.edit_named', { name })}
              title={t('common.button.edit')}
              onClick={() => onEdit(team)}
            />
            <DeleteAction
              label={t('admin.teams.delete_named', { name })}
              title={t('admin.teams.delete')}
              onClick={remove}
              loading={busy === 'delete'}
            />
          </Group>
        </Group>
        {team.bio ? (
          <Text size="sm" className={classes.wrap}>
            {team.bio}
          </Text>
        ) : (
          <Text size="sm" c="dimmed" fs="italic">
            {t('admin.teams.no_bio')}
          </Text>
        )}
        <div>
          <Text size="xs" c="dimmed" mb={4} id={`team-${team.id}-members`}>
            {t('admin.teams.members', { count: members.length })}
          </Text>
          {members.length === 0 ? (
            <Text size="sm" c="dimmed">
              {t('admin.teams.no_members')}
            </Text>
          ) : (
            <Group
              component="ul"
              gap="xs"
              className={classes.members}
              aria-labelledby={`team-${team.id}-members`}
            >
              {members.map((m) => (
                <li key={m.id} className={classes.member}>
                  <Avatar src={m.avatar} name={m.userName} color="initials" alt="" size={22} radius="xl" />
                  <Text span size="sm" className={classes.wrap}>
                    {m.userName}
                  </Text>
                  {m.captain && (
                    <Tooltip label={t('admin.teams.captain')}>
                      <IconCrown
                        size={14}
                        color="var(--mantine-color-yellow-filled)"
                        role="img"
                        aria-label={t('admin.teams.captain')}
                        style={{ flexShrink: 0 }}
                      />
                    </Tooltip>
                  )}
                </li>
              ))}
            </Group>
          )}
        </div>
      </Stack>
    </Paper>
  )
}

/**
 * Every team with its members, 30 a page on the server, or up to 30 whose name (or id) matches
 * the search. Teams can be locked or unlocked, renamed and described, and deleted.
 */
export function TeamList() {
  const { t } = useTranslation()
  const [page, setPage] = useState(1)
  const [text, setText] = useState('')
  const [debounced] = useDebouncedValue(text, 300)
  const hint = searchHint(debounced)
  const { data, error, isLoading, isValidating, mutate } = useTeamList(page, hint)
  const [editing, setEditing] = useState<AdminTeam | null>(null)
  const status = useRef<HTMLParagraphElement>(null)

  const teams = data?.data ?? []
  const total = data?.total ?? 0
  const pages = hint === null ? pageCount(total, PEOPLE_PAGE) : 1
  const first = (page - 1) * PEOPLE_PAGE + 1

  let summary: string
  if (hint !== null)
    summary =
      teams.length >= SEARCH_LIMIT
        ? t('admin.people.search_capped', { count: teams.length })
        : t('admin.people.search_count', { count: teams.length, hint })
  else summary = t('admin.teams.count', { from: first, to: first + teams.length - 1, total })

  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        {t('admin.teams.title')}
      </Title>
      <SearchField
        label={t('admin.teams.search')}
        placeholder={t('admin.teams.search_placeholder')}
        value={text}
        onChange={(value) => {
          setText(value)
          setPage(1)
        }}
        busy={isValidating && hint !== null}
      />
      <DataState
        loading={isLoading && !data}
        error={data ? undefined : error}
        onRetry={() => mutate()}
        isEmpty={teams.length === 0}
        empty={{
          icon: IconUsersGroup,
          title: hint === null ? t('admin.teams.none') : t('admin.people.no_match', { hint }),
          description: hint === null ? t('admin.teams.none_hint') : undefined,
        }}
      >
        <Text size="sm" c="dimmed" aria-live="polite" ref={status} tabIndex={-1} className={classes.status}>
          {summary}
        </Text>
        <ul className={classes.cards} aria-label={t('admin.teams.list')}>
          {teams.map((team) => (
            <TeamItem
              key={team.id}
              team={team}
              onEdit={setEditing}
              onRemoved={() => status.current?.focus()}
            />
          ))}
        </ul>
        <ListPager page={page} pages={pages} onChange={setPage} label={t('admin.teams.pages')} />
      </DataState>
      <TeamEditModal team={editing} onClose={() => setEditing(null)} />
    </Stack>
  )
}
