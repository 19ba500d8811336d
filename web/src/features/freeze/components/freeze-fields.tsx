import { Alert, Button, Group, SimpleGrid, Text, TextInput } from '@mantine/core'
import { IconEye, IconInfoCircle } from '@tabler/icons-react'
import { confirm } from '@/components/confirm'
import { useFeatures } from '@/features/extensions/api'
import { useSubmit } from '@/hooks/use-submit'
import { useTranslation } from '@/i18n'
import { toLocalInput } from '@/utils/datetime'
import { formatDateTime } from '@/utils/format-date'
import { useFreeze, useReveal } from '../api'

/**
 * The game editor's freeze fields (Pennant addition): the freeze and automatic reveal times,
 * whether the board is frozen now, and the Reveal button. Says so when the `freeze` switch is
 * off, since the times are then ignored.
 */
export function FreezeFields({
  game,
  freezeAt,
  revealAt,
  onChange,
  errors,
}: {
  game: { id: number }
  freezeAt: string
  revealAt: string
  onChange: (field: 'freezeAt' | 'revealAt', value: string) => void
  errors: { freezeAt?: string; revealAt?: string }
}) {
  const { t } = useTranslation()
  const switches = useFeatures().data
  const { data: status, mutate } = useFreeze(game.id)
  const reveal = useReveal()
  const { busy, run } = useSubmit()
  const off = switches !== undefined && !switches.freeze

  const doReveal = async () => {
    const ok = await confirm({
      title: t('admin.game.freeze.reveal'),
      message: t('admin.game.freeze.reveal_confirm'),
      confirmLabel: t('admin.game.freeze.reveal'),
    })
    if (!ok) return
    await run(
      async () => {
        const updated = await reveal(game.id)
        // The form shows the reveal time the server set, so a later save keeps the board revealed.
        if (updated.revealAt !== null) onChange('revealAt', toLocalInput(updated.revealAt))
        await mutate()
      },
      { success: t('admin.game.freeze.revealed') },
    )
  }

  return (
    <>
      {off && (
        <Alert color="gray" icon={<IconInfoCircle aria-hidden />} role="note">
          {t('admin.game.freeze.switch_off')}
        </Alert>
      )}
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput
          type="datetime-local"
          label={t('admin.game.freeze.freeze_at')}
          description={t('admin.game.freeze.freeze_at_hint')}
          value={freezeAt}
          onChange={(e) => onChange('freezeAt', e.currentTarget.value)}
          error={errors.freezeAt}
        />
        <TextInput
          type="datetime-local"
          label={t('admin.game.freeze.reveal_at')}
          description={t('admin.game.freeze.reveal_at_hint')}
          value={revealAt}
          onChange={(e) => onChange('revealAt', e.currentTarget.value)}
          error={errors.revealAt}
          disabled={!freezeAt}
        />
      </SimpleGrid>
      <Group justify="space-between" gap="sm">
        <Text size="sm" fw={500} role="status">
          {status?.frozen && status.freezeAt !== null
            ? t('admin.game.freeze.state_frozen', { time: formatDateTime(status.freezeAt) })
            : t('admin.game.freeze.state_live')}
        </Text>
        <Button
          variant="light"
          leftSection={<IconEye size={16} aria-hidden />}
          onClick={doReveal}
          loading={busy}
          disabled={!status?.frozen}
        >
          {t('admin.game.freeze.reveal')}
        </Button>
      </Group>
    </>
  )
}
