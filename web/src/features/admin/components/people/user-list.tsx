import {
  Avatar,
  Badge,
  Box,
  Button,
  Group,
  Paper,
  Stack,
  Table,
  Text,
  Title,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core'
import { useDebouncedValue } from '@mantine/hooks'
import { IconCircleCheckFilled, IconUserOff, IconUserPlus } from '@tabler/icons-react'
import { useRef, useState } from 'react'
import { DataState } from '@/components/data-state'
import { useUser } from '@/features/account/api'
import { useTranslation } from '@/i18n'
import { formatDateTime } from '@/utils/format-date'
import { NO_IP, PEOPLE_PAGE, pageCount, ROLE_COLOR, SEARCH_LIMIT, searchHint } from '../../admin-lists'
import type { AdminUser } from '../../user-form'
import { useUserList } from '../../users-api'
import { ListPager } from './list-pager'
import { PasswordModal } from './password-modal'
import classes from './people.module.css'
import { SearchField } from './search-field'
import { type UserActionHandlers, UserActions } from './user-actions'
import { UserBatchModal } from './user-batch-modal'
import { UserEditModal } from './user-edit-modal'
import '@mantine/core/styles/Avatar.css'
import '@mantine/core/styles/Badge.css'
import '@mantine/core/styles/Table.css'

function UserIdentity({ user }: { user: AdminUser }) {
  const { t } = useTranslation()
  return (
    <Group gap="sm" wrap="nowrap" miw={0}>
      <Avatar src={user.avatar} name={user.userName} color="initials" alt="" radius="xl" size="md" />
      <Stack gap={2} miw={0}>
        <Text fw={600} size="sm" className={classes.wrap}>
          {user.userName}
        </Text>
        <Badge size="xs" variant="light" color={ROLE_COLOR[user.role]} w="fit-content">
          {t(`admin.users.role.${user.role}`)}
        </Badge>
      </Stack>
    </Group>
  )
}

function Email({ user }: { user: AdminUser }) {
  const { t } = useTranslation()
  const label = user.emailConfirmed ? t('admin.users.email_confirmed') : t('admin.users.email_unconfirmed')
  return (
    <Group gap={4} wrap="nowrap" align="flex-start">
      <Text size="sm" className={classes.wrap}>
        {user.email}
      </Text>
      {user.emailConfirmed ? (
        <Tooltip label={label}>
          <IconCircleCheckFilled
            size={16}
            color="var(--mantine-color-teal-filled)"
            aria-label={label}
            role="img"
            style={{ flexShrink: 0, marginTop: 2 }}
          />
        </Tooltip>
      ) : (
        <Text span size="xs" style={{ flexShrink: 0, color: 'var(--mantine-color-orange-text)' }}>
          {t('admin.users.unconfirmed_short')}
        </Text>
      )}
    </Group>
  )
}

function LastVisit({ user }: { user: AdminUser }) {
  const { t } = useTranslation()
  if (user.ip === NO_IP)
    return (
      <Text size="sm" c="dimmed">
        {t('admin.users.never_visited')}
      </Text>
    )
  return (
    <>
      <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
        {formatDateTime(user.lastVisitedUtc)}
      </Text>
      <Text size="xs" c="dimmed" ff="monospace" className={classes.wrap}>
        {user.ip}
      </Text>
    </>
  )
}

const dash = (value: string | null | undefined) => value || '—'

/**
 * Every account, 30 a page on the server, or up to 30 matches of a search typed in the box
 * (sent 300 ms after the last key). A table on wide screens, a card per user on phones; users
 * can be edited, banned, given a new password and deleted, and added in batches.
 */
export function UserList() {
  const { t } = useTranslation()
  const { user: me } = useUser()
  const [page, setPage] = useState(1)
  const [text, setText] = useState('')
  const [debounced] = useDebouncedValue(text, 300)
  const hint = searchHint(debounced)
  const { data, error, isLoading, isValidating, mutate } = useUserList(page, hint)
  const [editing, setEditing] = useState<AdminUser | null>(null)
  const [password, setPassword] = useState<{ name: string; value: string } | null>(null)
  // The confirmation in between has taken the focus away: it goes back to the key button.
  const passwordFrom = useRef<HTMLElement | null>(null)
  const [adding, setAdding] = useState(false)
  const status = useRef<HTMLParagraphElement>(null)

  const users = data?.data ?? []
  const total = data?.total ?? 0
  const pages = hint === null ? pageCount(total, PEOPLE_PAGE) : 1
  const first = (page - 1) * PEOPLE_PAGE + 1

  const handlers: UserActionHandlers = {
    onEdit: setEditing,
    onPassword: (user, value, from) => {
      passwordFrom.current = from
      setPassword({ name: user.userName, value })
    },
    onRemoved: () => status.current?.focus(),
  }

  const search = (value: string) => {
    setText(value)
    setPage(1)
  }

  let summary: string
  if (hint !== null)
    summary =
      users.length >= SEARCH_LIMIT
        ? t('admin.people.search_capped', { count: users.length })
        : t('admin.people.search_count', { count: users.length, hint })
  else summary = t('admin.users.count', { from: first, to: first + users.length - 1, total })

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end">
        <Title order={1} size="h2">
          {t('admin.users.title')}
        </Title>
        <Button leftSection={<IconUserPlus size={16} aria-hidden />} onClick={() => setAdding(true)}>
          {t('admin.batch.open')}
        </Button>
      </Group>
      <SearchField
        label={t('admin.users.search')}
        placeholder={t('admin.users.search_placeholder')}
        value={text}
        onChange={search}
        busy={isValidating && hint !== null}
      />
      <DataState
        loading={isLoading && !data}
        error={data ? undefined : error}
        onRetry={() => mutate()}
        isEmpty={users.length === 0}
        empty={{
          icon: IconUserOff,
          title: hint === null ? t('admin.users.none') : t('admin.people.no_match', { hint }),
        }}
      >
        <Text size="sm" c="dimmed" aria-live="polite" ref={status} tabIndex={-1} className={classes.status}>
          {summary}
        </Text>
        <Table.ScrollContainer minWidth={920} visibleFrom="md" type="native">
          <Table striped highlightOnHover verticalSpacing={8}>
            <Table.Caption>
              <VisuallyHidden>{t('admin.users.table')}</VisuallyHidden>
            </Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('admin.users.col.user')}</Table.Th>
                <Table.Th scope="col">{t('admin.users.col.email')}</Table.Th>
                <Table.Th scope="col">{t('admin.users.col.real_name')}</Table.Th>
                <Table.Th scope="col">{t('admin.users.col.std_number')}</Table.Th>
                <Table.Th scope="col">{t('admin.users.col.last_visit')}</Table.Th>
                <Table.Th scope="col">
                  <VisuallyHidden>{t('admin.users.col.actions')}</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {users.map((user) => (
                <Table.Tr key={user.id}>
                  <Table.Td>
                    <UserIdentity user={user} />
                  </Table.Td>
                  <Table.Td maw={260}>
                    <Email user={user} />
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" className={classes.wrap}>
                      {dash(user.realName)}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" className={classes.wrap}>
                      {dash(user.stdNumber)}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <LastVisit user={user} />
                  </Table.Td>
                  <Table.Td>
                    <UserActions user={user} self={user.id === me?.userId} handlers={handlers} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        <Box component="ul" hiddenFrom="md" className={classes.cards} aria-label={t('admin.users.table')}>
          {users.map((user) => (
            <Paper component="li" key={user.id} withBorder radius="md" p="sm">
              <Stack gap="xs">
                <Group justify="space-between" wrap="nowrap" align="flex-start" gap="xs">
                  <UserIdentity user={user} />
                  <UserActions user={user} self={user.id === me?.userId} handlers={handlers} />
                </Group>
                <dl className={classes.facts}>
                  <div className={classes.full}>
                    <dt>{t('admin.users.col.email')}</dt>
                    <dd>
                      <Email user={user} />
                    </dd>
                  </div>
                  <div>
                    <dt>{t('admin.users.col.real_name')}</dt>
                    <dd>{dash(user.realName)}</dd>
                  </div>
                  <div>
                    <dt>{t('admin.users.col.std_number')}</dt>
                    <dd>{dash(user.stdNumber)}</dd>
                  </div>
                  <div className={classes.full}>
                    <dt>{t('admin.users.col.last_visit')}</dt>
                    <dd>
                      <LastVisit user={user} />
                    </dd>
                  </div>
                </dl>
              </Stack>
            </Paper>
          ))}
        </Box>
        <ListPager page={page} pages={pages} onChange={setPage} label={t('admin.users.pages')} />
      </DataState>
      <UserEditModal user={editing} self={editing?.id === me?.userId} onClose={() => setEditing(null)} />
      <PasswordModal
        shown={password}
        onClose={() => {
          setPassword(null)
          requestAnimationFrame(() => passwordFrom.current?.focus())
        }}
      />
      <UserBatchModal opened={adding} onClose={() => setAdding(false)} />
    </Stack>
  )
}
