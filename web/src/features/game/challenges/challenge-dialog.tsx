import { Alert, Anchor, Badge, Button, Divider, Group, Modal, Skeleton, Stack, Text } from '@mantine/core'
import { useMediaQuery } from '@mantine/hooks'
import { IconAlertTriangle, IconBulb, IconDownload, IconExternalLink } from '@tabler/icons-react'
import { Markdown } from '@/components/markdown'
import { useTranslation } from '@/i18n'
import { formatSize } from '@/utils/format-size'
import { useChallenge, useContainerActions } from '../api'
import { CATEGORY_META, categoryColor, categoryLabelKey } from '../categories'
import { ContainerPanel } from './container-panel'
import { FlagForm } from './flag-form'
import '@mantine/core/styles/Overlay.css'
import '@mantine/core/styles/ModalBase.css'
import '@mantine/core/styles/Modal.css'
import '@mantine/core/styles/Badge.css'
import '@mantine/core/styles/Divider.css'
import '@mantine/core/styles/Skeleton.css'

/** A local attachment's file name, from its `/assets/<hash>/<name>` URL. */
function fileName(url: string): string {
  try {
    return decodeURIComponent(url.split('/').pop() || url)
  } catch {
    return url
  }
}

/**
 * One challenge (full screen on phones): category, title, points, text, hints, attachment,
 * the team's container (container types), attempts and the flag form.
 */
export default function ChallengeDialog({
  gameId,
  challengeId,
  solved,
  practice,
  onClose,
  onSolved,
}: {
  gameId: number
  challengeId: number
  solved: boolean
  practice: boolean
  onClose: () => void
  onSolved: (challengeId: number) => void
}) {
  const { t } = useTranslation()
  const phone = useMediaQuery('(max-width: 48em)')
  const { data, error, isLoading } = useChallenge(gameId, challengeId)
  const meta = data ? (CATEGORY_META[data.category] ?? CATEGORY_META.Misc) : undefined
  const CategoryIcon = meta?.icon
  const url = data?.context.url
  const local = url?.startsWith('/assets/')
  const container = data?.type === 'StaticContainer' || data?.type === 'DynamicContainer'
  const exhausted = Boolean(data && data.limit > 0 && data.attempts >= data.limit)
  const { destroy } = useContainerActions(gameId, challengeId)

  const accepted = () => {
    // Solved: the team's container has done its job (seed behaviour); free the slot.
    // Best effort and silent: within 10 s of its start the server refuses (429), and it expires anyway.
    if (container && data?.context.instanceEntry) destroy().catch(() => {})
    onSolved(challengeId)
  }

  const title = data ? (
    <Group gap="xs" wrap="nowrap">
      {CategoryIcon && (
        <CategoryIcon size={22} color={categoryColor(data.category)} aria-hidden style={{ flexShrink: 0 }} />
      )}
      <Text span inherit fw={700} fz="lg" style={{ overflowWrap: 'anywhere' }}>
        {data.title}
      </Text>
    </Group>
  ) : isLoading ? (
    t('challenge.dialog.loading')
  ) : (
    t('challenge.board.title')
  )

  return (
    <Modal
      opened
      onClose={onClose}
      closeButtonProps={{ 'aria-label': t('common.button.close') }}
      title={title}
      size="xl"
      fullScreen={Boolean(phone)}
      radius={phone ? 0 : 'md'}
    >
      {isLoading && !data ? (
        <Stack aria-busy="true" aria-label={t('common.loading')}>
          <Skeleton height={14} width="40%" />
          <Skeleton height={14} />
          <Skeleton height={14} />
          <Skeleton height={14} width="70%" />
        </Stack>
      ) : !data ? (
        <Alert color="red" icon={<IconAlertTriangle aria-hidden />} title={t('challenge.dialog.error')}>
          {error?.title}
        </Alert>
      ) : (
        <Stack gap="md">
          <Group gap="xs">
            <Badge color="gray" variant="light">
              {t(categoryLabelKey(data.category))}
            </Badge>
            <Badge color="teal" variant="light">
              {t('challenge.card.points', { score: data.score })}
            </Badge>
            {solved && <Badge color="teal">{t('challenge.card.solved_by_us')}</Badge>}
          </Group>
          {data.content.trim() ? (
            <Markdown source={data.content} />
          ) : (
            <Text c="dimmed">{t('challenge.dialog.no_content')}</Text>
          )}
          {data.hints && data.hints.length > 0 && (
            <section aria-label={t('challenge.dialog.hints')}>
              <Stack gap={6} component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
                {data.hints.map((hint, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: hints have no id and keep their order
                  <Group key={i} component="li" gap={6} wrap="nowrap" align="flex-start">
                    <IconBulb
                      size={18}
                      color="var(--mantine-color-yellow-light-color)"
                      aria-hidden
                      style={{ flexShrink: 0, marginTop: 2 }}
                    />
                    <Text size="sm" component="div">
                      <Markdown source={hint} inline />
                    </Text>
                  </Group>
                ))}
              </Stack>
            </section>
          )}
          {url && (
            <Group gap="xs">
              <Button
                component="a"
                href={url}
                variant="light"
                {...(local ? { download: '' } : { target: '_blank', rel: 'noopener noreferrer' })}
                leftSection={
                  local ? <IconDownload size={18} aria-hidden /> : <IconExternalLink size={18} aria-hidden />
                }
              >
                {local ? fileName(url) : t('challenge.dialog.external')}
              </Button>
              {local && data.context.fileSize != null && (
                <Text size="sm" c="dimmed">
                  {formatSize(data.context.fileSize)}
                </Text>
              )}
            </Group>
          )}
          {container && (
            <ContainerPanel
              gameId={gameId}
              challengeId={challengeId}
              entry={data.context.instanceEntry}
              closeTime={data.context.closeTime}
            />
          )}
          <Divider />
          <Text size="sm" c="dimmed">
            {data.limit > 0
              ? t('challenge.dialog.attempts_limited', { attempts: data.attempts, limit: data.limit })
              : t('challenge.dialog.attempts_unlimited', { count: data.attempts })}
          </Text>
          <FlagForm
            gameId={gameId}
            challengeId={challengeId}
            solved={solved}
            exhausted={exhausted}
            practice={practice}
            onAccepted={accepted}
          />
          {!local && url && (
            <Text size="xs" c="dimmed">
              <Anchor href={url} target="_blank" rel="noopener noreferrer" size="xs">
                {url}
              </Anchor>
            </Text>
          )}
        </Stack>
      )}
    </Modal>
  )
}
