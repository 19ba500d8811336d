import { ActionIcon, Box, Group } from '@mantine/core'
import { IconBan, IconCircleCheck, IconEdit, IconKey, IconTrash } from '@tabler/icons-react'
import { useRef, useState } from 'react'
import { confirm } from '@/components/confirm'
import { useTranslation } from '@/i18n'
import { notify } from '@/utils/notify'
import type { AdminUser } from '../../user-form'
import { useUserActions } from '../../users-api'

export interface UserActionHandlers {
  onEdit: (user: AdminUser) => void
  /** A new password to show once; `from` takes the focus back when it is closed. */
  onPassword: (user: AdminUser, password: string, from: HTMLElement | null) => void
  /** The user is gone: focus moves elsewhere, since their row went with them. */
  onRemoved: () => void
}

/**
 * The row actions for one user: edit, ban or unban, reset the password, delete. Each icon
 * button is named with the user ("Delete alice"); the destructive ones ask first. Banning,
 * deleting yourself or changing your own role is refused by the server, so it is not offered.
 */
export function UserActions({
  user,
  self,
  handlers,
}: {
  user: AdminUser
  self: boolean
  handlers: UserActionHandlers
}) {
  const { t } = useTranslation()
  const actions = useUserActions()
  const [busy, setBusy] = useState<'ban' | 'password' | 'delete' | null>(null)
  const keyButton = useRef<HTMLButtonElement>(null)
  const name = user.userName
  const banned = user.role === 'Banned'

  const run = async <T,>(kind: 'ban' | 'password' | 'delete', action: () => Promise<T>) => {
    setBusy(kind)
    try {
      return { value: await action() }
    } catch (err) {
      notify.error(err)
      return null
    } finally {
      setBusy(null)
    }
  }

  const toggleBan = async () => {
    if (!banned) {
      const ok = await confirm({
        title: t('admin.users.ban'),
        message: t('admin.users.ban_confirm', { name }),
        confirmLabel: t('admin.users.ban'),
        danger: true,
      })
      if (!ok) return
    }
    const done = await run('ban', () => actions.update(user.id, { role: banned ? 'User' : 'Banned' }))
    if (done) notify.success(t(banned ? 'admin.users.unbanned' : 'admin.users.banned', { name }))
  }

  const resetPassword = async () => {
    const ok = await confirm({
      title: t('admin.users.reset_password'),
      message: t('admin.users.reset_password_confirm', { name }),
      confirmLabel: t('admin.users.reset_password'),
      danger: true,
    })
    if (!ok) return
    const done = await run('password', () => actions.resetPassword(user.id))
    if (done) handlers.onPassword(user, done.value, keyButton.current)
  }

  const remove = async () => {
    const ok = await confirm({
      title: t('admin.users.delete'),
      message: t('admin.users.delete_confirm', { name }),
      confirmLabel: t('admin.users.delete'),
      danger: true,
    })
    if (!ok) return
    const done = await run('delete', () => actions.remove(user.id))
    if (done) {
      notify.success(t('admin.users.deleted', { name }))
      handlers.onRemoved()
    }
  }

  return (
    <Group gap={2} wrap="nowrap" justify="flex-end">
      <ActionIcon
        variant="subtle"
        onClick={() => handlers.onEdit(user)}
        aria-label={t('admin.users.edit_named', { name })}
        title={t('common.button.edit')}
      >
        <IconEdit size={16} aria-hidden />
      </ActionIcon>
      {/* Yourself: no ban or delete (the server refuses both); blanks keep the icons in line. */}
      {self && <Box w={28} aria-hidden />}
      {!self && (
        <ActionIcon
          variant="subtle"
          color={banned ? 'teal' : 'orange'}
          loading={busy === 'ban'}
          onClick={toggleBan}
          aria-label={t(banned ? 'admin.users.unban_named' : 'admin.users.ban_named', { name })}
          title={t(banned ? 'admin.users.unban' : 'admin.users.ban')}
        >
          {banned ? <IconCircleCheck size={16} aria-hidden /> : <IconBan size={16} aria-hidden />}
        </ActionIcon>
      )}
      <ActionIcon
        ref={keyButton}
        variant="subtle"
        color="yellow"
        loading={busy === 'password'}
        onClick={resetPassword}
        aria-label={t('admin.users.reset_password_named', { name })}
        title={t('admin.users.reset_password')}
      >
        <IconKey size={16} aria-hidden />
      </ActionIcon>
      {self && <Box w={28} aria-hidden />}
      {!self && (
        <ActionIcon
          variant="subtle"
          color="red"
          loading={busy === 'delete'}
          onClick={remove}
          aria-label={t('admin.users.delete_named', { name })}
          title={t('admin.users.delete')}
        >
          <IconTrash size={16} aria-hidden />
        </ActionIcon>
      )}
    </Group>
  )
}
