import { Button, Group, Input, Stack, TextInput } from '@mantine/core'
import { type FormEvent, type ReactNode, useId, useState } from 'react'
import { useTranslation } from '@/i18n'
import { notify } from '@/utils/notify'
import { useProfileActions } from '../actions'
import type { Profile } from '../api'
import { BIO_MAX, checkBio, checkPhone, checkUserName, type FieldProblem } from '../validation'
import classes from './account.module.css'

type Field = 'userName' | 'phone' | 'stdNumber' | 'realName' | 'bio'

const fromProfile = (user: Profile): Record<Field, string> => ({
  userName: user.userName,
  phone: user.phone ?? '',
  stdNumber: user.stdNumber,
  realName: user.realName,
  bio: user.bio,
})

/** The editable profile fields; Save is enabled once something changed. */
export function ProfileForm({ user, emailSlot }: { user: Profile; emailSlot: ReactNode }) {
  const { t } = useTranslation()
  const { update } = useProfileActions()
  const [saved, setSaved] = useState(() => fromProfile(user))
  const [values, setValues] = useState(saved)
  const [errors, setErrors] = useState<Partial<Record<Field, FieldProblem | null>>>({})
  const [busy, setBusy] = useState(false)
  const bioId = useId()
  const dirty = (Object.keys(values) as Field[]).some((k) => values[k] !== saved[k])

  const set = (field: Field) => (event: { currentTarget: { value: string } }) => {
    const value = event.currentTarget.value
    setValues((v) => ({ ...v, [field]: value }))
    setErrors((e) => ({ ...e, [field]: null }))
  }

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const found = {
      userName: checkUserName(values.userName),
      phone: checkPhone(values.phone),
      bio: checkBio(values.bio),
    }
    setErrors(found)
    if (Object.values(found).some(Boolean)) return
    setBusy(true)
    try {
      await notify.pending(
        update({
          userName: values.userName.trim(),
          // An empty string clears the stored number (null would keep it).
          phone: values.phone.trim(),
          stdNumber: values.stdNumber.trim(),
          realName: values.realName.trim(),
          bio: values.bio,
        }),
        { pending: t('account.profile.saving'), success: t('account.profile.saved') },
      )
      setSaved(values)
    } catch {}
    setBusy(false)
  }

  const problem = (field: Field) => {
    const p = errors[field]
    return p ? t(`account.error.${p}`, { max: BIO_MAX }) : null
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <div className={classes.fields}>
          <TextInput
            label={t('account.field.user_name')}
            value={values.userName}
            onChange={set('userName')}
            error={problem('userName')}
            autoComplete="username"
            maxLength={15}
            required
          />
          {emailSlot}
          <TextInput
            label={t('account.field.real_name')}
            value={values.realName}
            onChange={set('realName')}
            autoComplete="name"
            maxLength={128}
          />
          <TextInput
            label={t('account.field.std_number')}
            value={values.stdNumber}
            onChange={set('stdNumber')}
            maxLength={64}
          />
          <TextInput
            label={t('account.field.phone')}
            type="tel"
            value={values.phone}
            onChange={set('phone')}
            error={problem('phone')}
            autoComplete="tel"
            maxLength={32}
          />
        </div>
        <Input.Wrapper
          label={t('account.field.bio')}
          description={t('account.profile.bio_count', { count: values.bio.length, max: BIO_MAX })}
          error={problem('bio')}
          id={bioId}
        >
          <Input
            component="textarea"
            id={bioId}
            value={values.bio}
            onChange={set('bio')}
            error={!!problem('bio')}
            rows={3}
            classNames={{ input: classes.textarea }}
            aria-describedby={`${bioId}-description`}
          />
        </Input.Wrapper>
        <Group justify="flex-end">
          <Button type="submit" loading={busy} disabled={!dirty}>
            {t('common.button.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  )
}
