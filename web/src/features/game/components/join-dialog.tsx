import { Alert, Button, Group, Modal, NativeSelect, Stack, Text, TextInput } from '@mantine/core'
import { IconAlertTriangle } from '@tabler/icons-react'
import { type FormEvent, useState } from 'react'
import { useTranslation } from '@/i18n'
import { notify } from '@/utils/notify'
import { type GameInfo, type MyTeam, useJoinGame } from '../api'
import '@mantine/core/styles/Overlay.css'
import '@mantine/core/styles/ModalBase.css'
import '@mantine/core/styles/Modal.css'

/**
 * The join form: which team (picked already when there is one), the invite code when the game
 * asks for one, and the division when the game has divisions. Server errors stay in the dialog.
 */
export default function JoinDialog({
  game,
  teams,
  onClose,
}: {
  game: GameInfo
  teams: MyTeam[]
  onClose: () => void
}) {
  const { t } = useTranslation()
  const join = useJoinGame(game.id)
  const divisions = game.divisions ?? []
  const [teamId, setTeamId] = useState(teams.length === 1 ? String(teams[0]!.id) : '')
  const [division, setDivision] = useState(divisions.length === 1 ? divisions[0]! : '')
  const [inviteCode, setInviteCode] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (!teamId) return setError(t('game.join.pick_team'))
    if (divisions.length && !division) return setError(t('game.join.pick_division'))
    if (game.inviteCodeRequired && !inviteCode.trim()) return setError(t('game.join.code_required'))
    setBusy(true)
    setError(null)
    try {
      await join({
        teamId: Number(teamId),
        division: divisions.length ? division : null,
        inviteCode: game.inviteCodeRequired ? inviteCode.trim() : null,
      })
      notify.success(t('game.join.done', { title: game.title }))
      onClose()
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err))
    } finally {
      setBusy(false)
    }
  }

  return (
    <Modal
      opened
      onClose={onClose}
      closeButtonProps={{ 'aria-label': t('common.button.close') }}
      title={t('game.join.title', { title: game.title })}
    >
      <form onSubmit={submit} noValidate>
        <Stack>
          <NativeSelect
            label={t('game.join.team')}
            required
            value={teamId}
            onChange={(e) => setTeamId(e.currentTarget.value)}
            data={[
              ...(teams.length === 1
                ? []
                : [{ value: '', label: t('game.join.team_placeholder'), disabled: true }]),
              ...teams.map((team) => ({ value: String(team.id), label: team.name })),
            ]}
            data-autofocus
          />
          {game.limit > 0 && (
            <Text size="sm" c="dimmed">
              {t('game.join.limit_hint', { count: game.limit })}
            </Text>
          )}
          {divisions.length > 0 && (
            <NativeSelect
              label={t('game.join.division')}
              required
              value={division}
              onChange={(e) => setDivision(e.currentTarget.value)}
              data={[
                ...(divisions.length === 1
                  ? []
                  : [{ value: '', label: t('game.join.division_placeholder'), disabled: true }]),
                ...divisions,
              ]}
            />
          )}
          {game.inviteCodeRequired && (
            <TextInput
              label={t('game.join.invite_code')}
              description={t('game.join.invite_code_hint')}
              required
              autoComplete="off"
              value={inviteCode}
              onChange={(e) => setInviteCode(e.currentTarget.value)}
            />
          )}
          {error && (
            <Alert color="red" icon={<IconAlertTriangle size={18} aria-hidden />} role="alert">
              {error}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.button.cancel')}
            </Button>
            <Button type="submit" loading={busy}>
              {t('game.join.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  )
}
