import { Alert, Button, Group, Stack, TextInput } from '@mantine/core'
import { type FormEvent, useState } from 'react'
import { MONO_INPUT } from '@/components/mono-input'
import { useSubmit } from '@/hooks/use-submit'
import { useTranslation } from '@/i18n'
import { useTeamActions } from '../api'
import { isInviteCode } from '../team-rules'
import { TeamModal } from './team-modal'

/** Joins a team with the code its captain shared; the format is checked before asking the server. */
export function JoinTeamModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation()
  const { join } = useTeamActions()
  const [code, setCode] = useState('')
  const [invalid, setInvalid] = useState(false)
  // The refusal is said in the form too: the toast goes away, the reason should not.
  const { busy, run, failure: refusal, clearFailure } = useSubmit()

  const close = () => {
    setCode('')
    setInvalid(false)
    clearFailure()
    onClose()
  }

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    if (!isInviteCode(code)) {
      setInvalid(true)
      return
    }
    if (await run(() => join(code), { success: t('team.join.done') })) close()
  }

  return (
    <TeamModal opened={opened} onClose={close} title={t('team.join.title')}>
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput
            label={t('team.join.code')}
            description={t('team.join.code_hint')}
            placeholder="team:1:0123456789abcdef0123456789abcdef"
            required
            value={code}
            onChange={(e) => {
              setCode(e.currentTarget.value)
              setInvalid(false)
            }}
            error={invalid ? t('team.join.invalid') : undefined}
            styles={MONO_INPUT}
            autoComplete="off"
            spellCheck={false}
            data-autofocus
          />
          {refusal && (
            <Alert color="red" role="alert">
              {refusal}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {t('common.button.cancel')}
            </Button>
            <Button type="submit" loading={busy} disabled={!code.trim()}>
              {t('team.join.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </TeamModal>
  )
}
