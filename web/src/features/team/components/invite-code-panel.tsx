import { ActionIcon, Alert, Button, Center, Group, Loader, Stack, Text, TextInput } from '@mantine/core'
import { useClipboard } from '@mantine/hooks'
import { IconCopy, IconEye, IconEyeOff, IconQrcode, IconRefresh } from '@tabler/icons-react'
import { lazy, Suspense, useState } from 'react'
import { confirm } from '@/components/confirm'
import { MONO_INPUT } from '@/components/mono-input'
import { useSubmit } from '@/hooks/use-submit'
import { useTranslation } from '@/i18n'
import { notify } from '@/utils/notify'
import { useInviteCode, useTeamActions } from '../api'
import { maskInviteCode } from '../team-rules'

const InviteQr = lazy(() => import('./invite-qr'))

/** The captain's invite code: masked until revealed, copyable, renewable, and as a QR code. */
export function InviteCodePanel({ teamId }: { teamId: number }) {
  const { t } = useTranslation()
  const { data: code, error, isLoading, mutate } = useInviteCode(teamId, true)
  const { regenerateInvite } = useTeamActions()
  const [revealed, setRevealed] = useState(false)
  const [showQr, setShowQr] = useState(false)
  const { busy, run } = useSubmit()
  const clipboard = useClipboard({ timeout: 1500 })

  if (isLoading)
    return (
      <Center py="sm">
        <Loader size="sm" aria-label={t('common.loading')} />
      </Center>
    )
  if (error || code === undefined)
    return (
      <Alert color="red" title={t('team.invite.load_failed')}>
        <Group justify="space-between">
          <Text size="sm">{error?.title}</Text>
          <Button size="xs" variant="light" onClick={() => mutate()}>
            {t('common.button.retry')}
          </Button>
        </Group>
      </Alert>
    )

  const copy = () => {
    clipboard.copy(code)
    notify.success(t('team.invite.copied'))
  }

  const regenerate = async () => {
    const ok = await confirm({
      title: t('team.invite.regenerate'),
      message: t('team.invite.regenerate_confirm'),
      confirmLabel: t('team.invite.regenerate'),
      danger: true,
    })
    if (!ok) return
    await run(
      async () => {
        await mutate(await regenerateInvite(teamId), { revalidate: false })
      },
      { success: t('team.invite.regenerated') },
    )
  }

  return (
    <Stack gap="xs">
      <TextInput
        label={t('team.invite.label')}
        description={t('team.invite.hint')}
        readOnly
        value={revealed ? code : maskInviteCode(code)}
        styles={MONO_INPUT}
        onFocus={(e) => e.currentTarget.select()}
        rightSectionWidth={68}
        rightSection={
          <Group gap={2} wrap="nowrap">
            <ActionIcon
              variant="subtle"
              onClick={() => setRevealed((v) => !v)}
              aria-label={revealed ? t('team.invite.hide') : t('team.invite.reveal')}
              aria-pressed={revealed}
            >
              {revealed ? <IconEyeOff size={16} aria-hidden /> : <IconEye size={16} aria-hidden />}
            </ActionIcon>
            <ActionIcon variant="subtle" onClick={copy} aria-label={t('team.invite.copy')}>
              <IconCopy size={16} aria-hidden />
            </ActionIcon>
          </Group>
        }
      />
      <Group gap="xs">
        <Button
          size="xs"
          variant="light"
          color="red"
          leftSection={<IconRefresh size={14} aria-hidden />}
          onClick={regenerate}
          loading={busy}
        >
          {t('team.invite.regenerate')}
        </Button>
        <Button
          size="xs"
          variant="light"
          leftSection={<IconQrcode size={14} aria-hidden />}
          onClick={() => setShowQr((v) => !v)}
          aria-expanded={showQr}
        >
          {showQr ? t('team.invite.hide_qr') : t('team.invite.show_qr')}
        </Button>
      </Group>
      {showQr && (
        <Center py="xs">
          <Suspense fallback={<Loader size="sm" aria-label={t('common.loading')} />}>
            <InviteQr code={code} label={t('team.invite.qr_label')} />
          </Suspense>
        </Center>
      )}
    </Stack>
  )
}
