import { Alert, Button, Group, Loader, Text, TextInput } from '@mantine/core'
import { notifications } from '@mantine/notifications'
import { IconCircleCheckFilled, IconFlag, IconLock, IconX } from '@tabler/icons-react'
import { type FormEvent, useEffect, useRef, useState } from 'react'
import { useTranslation } from '@/i18n'
import { notify } from '@/utils/notify'
import { useSubmitFlag } from '../api'

const pick = (list: string[]) => list[Math.floor(Math.random() * list.length)]

/**
 * The flag form of a challenge. A submission is judged asynchronously: while the status is polled
 * (with a growing delay, see `useSubmitFlag`) an orange "judging" line is shown and announced;
 * the result arrives as a toast.
 */
export function FlagForm({
  gameId,
  challengeId,
  solved,
  exhausted,
  practice,
  onAccepted,
}: {
  gameId: number
  challengeId: number
  solved: boolean
  exhausted: boolean
  /** The game has ended: a correct flag is practice, it does not score. */
  practice: boolean
  onAccepted: () => void
}) {
  const { t, tList } = useTranslation()
  const submit = useSubmitFlag(gameId)
  const [flag, setFlag] = useState('')
  const [judging, setJudging] = useState(false)
  const [placeholder] = useState(() => pick(tList('challenge.flag.placeholders')) ?? 'flag{...}')
  const abort = useRef<AbortController | null>(null)
  const input = useRef<HTMLInputElement>(null)

  // The dialog opens before the challenge has loaded, so its focus trap starts on Close; the flag
  // field takes the focus once it appears, unless the player has moved on to something else.
  useEffect(() => {
    const active = document.activeElement
    if (!active || active === document.body || active.classList.contains('mantine-Modal-close'))
      input.current?.focus()
  }, [])

  // Closing the dialog stops the polling; the judge's answer still reaches the board's data.
  useEffect(() => () => abort.current?.abort(), [])

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    if (judging) return
    const value = flag.trim()
    if (!value) {
      notify.error(t('challenge.flag.empty'), t('challenge.flag.empty_title'))
      return
    }
    const controller = new AbortController()
    abort.current = controller
    setJudging(true)
    try {
      const outcome = await submit(challengeId, value, controller.signal)
      if (outcome === 'Accepted') {
        notify.success(
          t(practice ? 'challenge.flag.accepted_practice' : 'challenge.flag.accepted'),
          t('challenge.flag.accepted_title'),
        )
        setFlag('')
        onAccepted()
      } else if (outcome === 'WrongAnswer') {
        notifications.show({
          color: 'red',
          icon: <IconX size={18} aria-hidden />,
          title: t('challenge.flag.wrong_title'),
          message: pick(tList('game.quips')) ?? t('challenge.flag.wrong'),
        })
      } else if (outcome === 'Timeout') {
        notifications.show({
          color: 'yellow',
          title: t('challenge.flag.timeout_title'),
          message: t('challenge.flag.timeout'),
        })
      } else {
        notifications.show({
          color: 'yellow',
          title: t('challenge.flag.other_title'),
          message: t('challenge.flag.other', { status: outcome }),
          autoClose: false,
        })
      }
    } catch (err) {
      if (!controller.signal.aborted) notify.error(err)
    } finally {
      if (!controller.signal.aborted) setJudging(false)
    }
  }

  if (solved)
    return (
      <Alert color="teal" icon={<IconCircleCheckFilled aria-hidden />}>
        {t('challenge.flag.solved')}
      </Alert>
    )

  if (exhausted)
    return (
      <Alert color="gray" icon={<IconLock aria-hidden />}>
        {t('challenge.flag.exhausted')}
      </Alert>
    )

  return (
    <form onSubmit={onSubmit}>
      <Group align="flex-end" gap="xs" wrap="nowrap">
        <TextInput
          label={t('challenge.flag.label')}
          placeholder={placeholder}
          value={flag}
          onChange={(e) => setFlag(e.currentTarget.value)}
          readOnly={judging}
          autoComplete="off"
          spellCheck={false}
          autoCapitalize="off"
          // 16px: phones do not zoom into the field, and small monospace fonts can lose underscores.
          size="md"
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          style={{ flex: 1 }}
          data-autofocus
          ref={input}
        />
        {/* Busy while judged: a spinner and "Judging" on the button itself, where the eye is, and
            no second submission of the same flag. Not `disabled`, which would drop the focus out of
            the dialog; Mantine's `loading` would hide the label. */}
        <Button
          type="submit"
          size="md"
          data-disabled={judging || undefined}
          aria-disabled={judging}
          aria-busy={judging}
          leftSection={
            judging ? (
              <Loader size={18} color="currentColor" aria-hidden />
            ) : (
              <IconFlag size={18} aria-hidden />
            )
          }
        >
          {judging ? t('challenge.flag.submit_busy') : t('challenge.flag.submit')}
        </Button>
      </Group>
      <Text size="sm" c="orange" mt={6} role="status" aria-live="polite" mih={22}>
        {judging && (
          <Group gap={6} component="span">
            <Loader size={14} color="orange" aria-hidden />
            {t('challenge.flag.judging')}
          </Group>
        )}
      </Text>
    </form>
  )
}
