import { Badge, Button, Code, Group, Paper, Stack, Text, Title } from '@mantine/core'
import { IconBox, IconClockPlus, IconExternalLink, IconPlayerPlay, IconTrash } from '@tabler/icons-react'
import { useEffect, useId, useRef, useState } from 'react'
import { confirm } from '@/components/confirm'
import { CopyField } from '@/components/copy-field'
import { useConfig } from '@/features/info/api'
import { useTunnel } from '@/features/tunnel/use-tunnel'
import { useTranslation } from '@/i18n'
import { formatDateTime, formatDuration } from '@/utils/format-date'
import { notify } from '@/utils/notify'
import { useContainerActions } from '../api'
import { entryHref, proxyUrl, renewalOpensAt } from '../container'
import { useNow } from '../use-now'
import '@mantine/core/styles/Badge.css'

type Busy = 'start' | 'extend' | 'destroy' | null

const time = (ms: number) => formatDateTime(ms, { dateStyle: undefined, timeStyle: 'short' })

/**
 * The team's own instance of a container challenge: start it; while it runs, its entry (copy,
 * open), the time left, Extend (inside the renewal window) and Destroy. At zero the client
 * destroys it once, as the seed does, so the team's container slot frees at once.
 */
export function ContainerPanel({
  gameId,
  challengeId,
  entry,
  closeTime,
}: {
  gameId: number
  challengeId: number
  entry: string | null
  closeTime: number | null
}) {
  const { t } = useTranslation()
  const titleId = useId()
  const { config, mutate: reloadConfig } = useConfig()
  // The config is fetched once per visit and not retried; the lifetimes matter here, so ask again.
  useEffect(() => {
    if (!config) void reloadConfig()
  }, [config, reloadConfig])
  const { start, extend, destroy } = useContainerActions(gameId, challengeId)
  const [busy, setBusy] = useState<Busy>(null)
  const [expiredNote, setExpiredNote] = useState(false)
  const now = useNow()
  const running = entry !== null && closeTime !== null
  const left = running ? closeTime - now : 0
  const expired = running && left <= 0
  // Behind the platform proxy the entry is the container id: players connect through a tunnel,
  // the local daemon when one runs (then its local address is shown), else by hand.
  const proxied = config?.portMapping === 'PlatformProxy'
  const wsAddress = entry && proxied ? proxyUrl(entry, window.location) : null
  const tunnel = useTunnel(proxied, config?.title ?? 'Pennant', running && !expired ? wsAddress : null)
  const [showRemote, setShowRemote] = useState(false)
  const shown = proxied ? (tunnel.local && !showRemote ? tunnel.local : wsAddress) : entry

  // Once per stop time: a failure needs no toast, the server's reaper stops it as well.
  const autoDestroyed = useRef<number | null>(null)
  useEffect(() => {
    if (!expired || autoDestroyed.current === closeTime) return
    autoDestroyed.current = closeTime
    setExpiredNote(true)
    destroy().catch(() => {})
  }, [expired, closeTime, destroy])

  const run = async (kind: Exclude<Busy, null>, action: () => Promise<unknown>) => {
    setBusy(kind)
    try {
      await action()
    } catch (err) {
      notify.error(err)
    } finally {
      setBusy(null)
    }
  }

  const onStart = () =>
    run('start', async () => {
      setExpiredNote(false)
      await start()
    })
  const onExtend = () =>
    run('extend', async () => {
      const info = await extend()
      notify.success(t('challenge.container.extended', { time: time(info.expectStopAt) }))
    })
  const onDestroy = async () => {
    const ok = await confirm({
      title: t('challenge.container.destroy_title'),
      message: t('challenge.container.destroy_confirm'),
      confirmLabel: t('challenge.container.destroy'),
      danger: true,
    })
    if (ok)
      await run('destroy', async () => {
        await destroy()
        notify.success(t('challenge.container.destroyed'))
      })
  }

  const renewalWindow = config?.renewalWindow
  // Without the config the server decides; it answers 400 outside the window.
  const opensAt = running && renewalWindow !== undefined ? renewalOpensAt(closeTime, renewalWindow) : null
  const canExtend = running && !expired && (opensAt === null || now >= opensAt)
  const href = shown ? entryHref(shown) : null

  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby={titleId}>
      <Stack gap="sm">
        <Group gap="xs" justify="space-between">
          <Group gap={6} wrap="nowrap">
            <IconBox size={20} aria-hidden />
            <Title order={2} size="h5" id={titleId}>
              {t('challenge.container.title')}
            </Title>
          </Group>
          {running && (
            <Badge color={expired ? 'gray' : 'teal'} variant="light">
              {expired ? t('challenge.container.expired_badge') : t('challenge.container.running')}
            </Badge>
          )}
        </Group>
        {!running ? (
          <>
            <Text size="sm" aria-live="polite">
              {expiredNote
                ? t('challenge.container.expired')
                : config
                  ? t('challenge.container.intro', { minutes: config.defaultLifetime })
                  : t('challenge.container.intro_short')}
            </Text>
            <Group gap="sm">
              <Button
                onClick={onStart}
                loading={busy === 'start'}
                leftSection={<IconPlayerPlay size={16} aria-hidden />}
              >
                {t('challenge.container.start')}
              </Button>
              {busy === 'start' && (
                <Text size="sm" c="dimmed" aria-live="polite">
                  {t('challenge.container.starting')}
                </Text>
              )}
            </Group>
          </>
        ) : (
          <>
            <Group gap="xs" align="flex-end" wrap="nowrap">
              <div style={{ flex: 1, minWidth: 0 }}>
                <CopyField
                  label={t('challenge.container.entry')}
                  value={shown ?? ''}
                  copyLabel={t('challenge.container.copy_entry')}
                />
              </div>
              {href && (
                <Button
                  component="a"
                  href={href}
                  target="_blank"
                  rel="noopener noreferrer"
                  variant="default"
                  leftSection={<IconExternalLink size={16} aria-hidden />}
                  aria-label={t('challenge.container.open_label', { entry: shown })}
                >
                  {t('challenge.container.open')}
                </Button>
              )}
            </Group>
            {proxied && tunnel.local && (
              <Group gap="xs">
                <Text size="sm">{t('challenge.container.tunnel_local')}</Text>
                <Button variant="subtle" size="compact-sm" onClick={() => setShowRemote((v) => !v)}>
                  {showRemote ? t('challenge.container.show_local') : t('challenge.container.show_remote')}
                </Button>
              </Group>
            )}
            {proxied && !tunnel.local && (
              <Text size="sm">
                {t('challenge.container.tunnel_before')}{' '}
                <a href="/api/ext/tunnel.mjs" download>
                  tunnel.mjs
                </a>{' '}
                {t('challenge.container.tunnel_after')} <Code>node tunnel.mjs {wsAddress}</Code>{' '}
                {t('challenge.container.tunnel_daemon')}{' '}
                <Code>node tunnel.mjs --allow {window.location.origin}</Code>
              </Text>
            )}
            <Group gap="xs" wrap="nowrap" align="baseline">
              <Text size="sm" c="dimmed">
                {t('challenge.container.time_left')}
              </Text>
              {/* role=timer is not announced as it ticks; the hint below is, when it changes. */}
              <Text
                role="timer"
                ff="monospace"
                fw={700}
                fz="lg"
                aria-label={t('challenge.container.time_left_label', {
                  time: formatDuration(left, { padHours: true }),
                })}
              >
                {formatDuration(left, { padHours: true })}
              </Text>
            </Group>
            <Text size="sm" c="dimmed" aria-live="polite">
              {expired
                ? t('challenge.container.expired_now')
                : !config || opensAt === null
                  ? ''
                  : canExtend
                    ? t('challenge.container.extend_ready', { minutes: config.extensionDuration })
                    : t('challenge.container.extend_locked', { window: renewalWindow, time: time(opensAt) })}
            </Text>
            <Group gap="sm">
              <Button
                variant="light"
                onClick={onExtend}
                disabled={!canExtend || busy !== null}
                loading={busy === 'extend'}
                leftSection={<IconClockPlus size={16} aria-hidden />}
              >
                {t('challenge.container.extend')}
              </Button>
              <Button
                variant="light"
                color="red"
                onClick={onDestroy}
                disabled={busy !== null && busy !== 'destroy'}
                loading={busy === 'destroy'}
                leftSection={<IconTrash size={16} aria-hidden />}
              >
                {t('challenge.container.destroy')}
              </Button>
            </Group>
          </>
        )}
      </Stack>
    </Paper>
  )
}
