import { Anchor, Badge, Group, Stack, Text, Title } from '@mantine/core'
import { IconArrowLeft } from '@tabler/icons-react'
import { Link } from 'react-router'
import { DataState } from '@/components/data-state'
import { paths } from '@/features/paths'
import { useTranslation } from '@/i18n'
import { useEditChallenge } from '../api'
import { TYPE_COLOR } from '../categories'
import { ChallengeFlags } from './challenge-flags'
import '@mantine/core/styles/Badge.css'

/** A challenge's attachment and flags, in the form its type calls for. */
export function FlagsView({ gameId, challengeId }: { gameId: number; challengeId: number }) {
  const { t } = useTranslation()
  const { data: challenge, error, isLoading, mutate } = useEditChallenge(gameId, challengeId)
  const refresh = () => void mutate()

  return (
    <Stack gap="md">
      <Anchor component={Link} to={paths.admin.challenge(gameId, challengeId)} size="sm" w="fit-content">
        <Group gap={4}>
          <IconArrowLeft size={14} aria-hidden />
          {t('admin.flags.back')}
        </Group>
      </Anchor>
      <DataState loading={isLoading && !challenge} error={challenge ? undefined : error} onRetry={refresh}>
        {challenge && (
          <Stack gap="md">
            <Group gap="sm">
              <Title order={2} size="h3" style={{ wordBreak: 'break-word' }}>
                {t('admin.flags.heading', { title: challenge.title })}
              </Title>
              <Badge color={TYPE_COLOR[challenge.type]} variant="outline">
                {t(`admin.challenge_type.${challenge.type}`)}
              </Badge>
            </Group>
            <Text size="sm" c="dimmed">
              {t(`admin.challenge_type_hint.${challenge.type}`)}
            </Text>
            <ChallengeFlags gameId={gameId} challenge={challenge} onChanged={refresh} />
          </Stack>
        )}
      </DataState>
    </Stack>
  )
}
