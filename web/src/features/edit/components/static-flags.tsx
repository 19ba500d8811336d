import { Alert, Button, Group, Stack, Text, Textarea } from '@mantine/core'
import { IconPlus } from '@tabler/icons-react'
import { type FormEvent, useState } from 'react'
import { EditModal } from '@/components/edit-modal'
import { MONO_INPUT } from '@/components/mono-input'
import { Section } from '@/components/section'
import { useSubmit } from '@/hooks/use-submit'
import { useTranslation } from '@/i18n'
import { type EditChallenge, useChallengeActions } from '../api'
import { FLAG_MAX, parseFlagList } from '../flag-rules'
import { FlagList } from './flag-list'

/** Flags any team may submit: a list, and a dialog to paste several at once. */
export function StaticFlags({
  gameId,
  challenge,
  onChanged,
}: {
  gameId: number
  challenge: EditChallenge
  onChanged: () => void
}) {
  const { t } = useTranslation()
  const { addFlags } = useChallengeActions(gameId)
  const [adding, setAdding] = useState(false)
  const [text, setText] = useState('')
  const { busy, run } = useSubmit()
  const { flags, tooLong } = parseFlagList(text)

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    if (!flags.length || tooLong.length) return
    const done = await run(
      async () => {
        await addFlags(
          challenge.id,
          flags.map((flag) => ({ flag })),
        )
        onChanged()
      },
      { success: t('admin.flags.added', { count: flags.length }) },
    )
    if (!done) return
    setText('')
    setAdding(false)
  }

  return (
    <Section title={t('admin.flags.title')}>
      <Text size="sm" c="dimmed">
        {t('admin.flags.static_hint')}
      </Text>
      <FlagList gameId={gameId} challengeId={challenge.id} flags={challenge.flags} onChanged={onChanged} />
      <Button
        w="fit-content"
        leftSection={<IconPlus size={16} aria-hidden />}
        onClick={() => setAdding(true)}
      >
        {t('admin.flags.add')}
      </Button>
      <EditModal opened={adding} onClose={() => setAdding(false)} title={t('admin.flags.add')}>
        <form onSubmit={submit} noValidate>
          <Stack>
            <Textarea
              label={t('admin.flags.add_label')}
              description={t('admin.flags.add_hint', { max: FLAG_MAX })}
              autosize
              minRows={4}
              maxRows={16}
              value={text}
              onChange={(e) => setText(e.currentTarget.value)}
              styles={MONO_INPUT}
              data-autofocus
            />
            {tooLong.length > 0 && (
              <Alert color="red" role="alert">
                {t('admin.flags.too_long', { count: tooLong.length, max: FLAG_MAX })}
              </Alert>
            )}
            <Group justify="space-between">
              <Text size="sm" c="dimmed" aria-live="polite">
                {t('admin.flags.count', { count: flags.length })}
              </Text>
              <Group gap="sm">
                <Button variant="default" onClick={() => setAdding(false)}>
                  {t('common.button.cancel')}
                </Button>
                <Button type="submit" loading={busy} disabled={!flags.length || tooLong.length > 0}>
                  {t('admin.flags.add_submit')}
                </Button>
              </Group>
            </Group>
          </Stack>
        </form>
      </EditModal>
    </Section>
  )
}
