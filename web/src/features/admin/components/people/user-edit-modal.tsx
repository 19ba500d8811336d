import { Button, Group, NativeSelect, SimpleGrid, Stack, Switch, Textarea, TextInput } from '@mantine/core'
import { type FormEvent, useEffect, useState } from 'react'
import { RoleValues } from '@/api/schema.gen'
import type { Role } from '@/api/types'
import { EditModal } from '@/components/edit-modal'
import { useSubmit } from '@/hooks/use-submit'
import { useTranslation } from '@/i18n'
import {
  type AdminUser,
  BIO_MAX,
  type FieldError,
  toUserUpdate,
  type UserForm,
  userFormErrors,
  userFormOf,
} from '../../user-form'
import { useUserActions } from '../../users-api'
import '@mantine/core/styles/SimpleGrid.css'
import '@mantine/core/styles/Switch.css'

type Errors = Partial<Record<keyof UserForm, FieldError>>

/**
 * Everything an admin may change about a user: name, e-mail and whether it is confirmed,
 * role, real name, student number, phone and bio. Your own role is shown but cannot change.
 */
export function UserEditModal({
  user,
  self,
  onClose,
}: {
  user: AdminUser | null
  self: boolean
  onClose: () => void
}) {
  const { t } = useTranslation()
  const { update } = useUserActions()
  const [form, setForm] = useState<UserForm | null>(null)
  const [errors, setErrors] = useState<Errors>({})
  const { busy, run } = useSubmit()

  useEffect(() => {
    if (user) {
      setForm(userFormOf(user))
      setErrors({})
    }
  }, [user])

  const set =
    <K extends keyof UserForm>(key: K) =>
    (value: UserForm[K]) => {
      setForm((f) => (f ? { ...f, [key]: value } : f))
      setErrors((e) => ({ ...e, [key]: undefined }))
    }
  const text = (key: 'userName' | 'email' | 'realName' | 'stdNumber' | 'phone' | 'bio') => ({
    value: form?.[key] ?? '',
    onChange: (e: { currentTarget: { value: string } }) => set(key)(e.currentTarget.value),
    error: errors[key] && t(`admin.users.error.${errors[key].code}`, errors[key].params),
  })

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (!user || !form) return
    const found = userFormErrors(form)
    setErrors(found)
    if (Object.keys(found).length) return
    const done = await run(() => update(user.id, toUserUpdate(form, self)), {
      success: t('admin.users.saved', { name: form.userName.trim() }),
    })
    if (!done) return
    onClose()
  }

  return (
    <EditModal
      opened={user !== null}
      onClose={onClose}
      title={t('admin.users.edit_title', { name: user?.userName ?? '' })}
    >
      {form && (
        <form onSubmit={submit} noValidate>
          <Stack gap="md">
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
              <TextInput
                label={t('admin.users.field.user_name')}
                required
                data-autofocus
                autoComplete="off"
                {...text('userName')}
              />
              <NativeSelect
                label={t('admin.users.field.role')}
                description={self ? t('admin.users.field.role_self') : undefined}
                disabled={self}
                value={form.role}
                onChange={(e) => set('role')(e.currentTarget.value as Role)}
                data={RoleValues.map((role) => ({ value: role, label: t(`admin.users.role.${role}`) }))}
              />
            </SimpleGrid>
            <TextInput
              label={t('admin.users.field.email')}
              type="email"
              required
              autoComplete="off"
              {...text('email')}
            />
            <Switch
              label={t('admin.users.field.email_confirmed')}
              description={t('admin.users.field.email_confirmed_hint')}
              checked={form.emailConfirmed}
              onChange={(e) => set('emailConfirmed')(e.currentTarget.checked)}
            />
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
              <TextInput label={t('admin.users.field.real_name')} autoComplete="off" {...text('realName')} />
              <TextInput
                label={t('admin.users.field.std_number')}
                autoComplete="off"
                {...text('stdNumber')}
              />
            </SimpleGrid>
            <TextInput
              label={t('admin.users.field.phone')}
              type="tel"
              autoComplete="off"
              {...text('phone')}
            />
            <Textarea
              label={t('admin.users.field.bio')}
              description={t('admin.users.field.bio_hint', { count: form.bio.length, max: BIO_MAX })}
              autosize
              minRows={2}
              maxRows={5}
              {...text('bio')}
            />
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
