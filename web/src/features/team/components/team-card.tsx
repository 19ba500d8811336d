import { Avatar, Badge, Button, Card, Group, Stack, Text, Title, Tooltip } from '@mantine/core'
import { IconCrown, IconLock, IconSettings } from '@tabler/icons-react'
import { useTranslation } from '@/i18n'
import type { Team } from '../api'
import { isCaptain, sortMembers } from '../team-rules'
import '@mantine/core/styles/Card.css'
import '@mantine/core/styles/Avatar.css'
import '@mantine/core/styles/Badge.css'
import '@mantine/core/styles/Popover.css'
import '@mantine/core/styles/Tooltip.css'

const SHOWN_MEMBERS = 6

/** One of my teams: who is in it, whether I captain it, whether it is locked; opens the manage view. */
export function TeamCard({ team, userId, onManage }: { team: Team; userId?: string; onManage: () => void }) {
  const { t } = useTranslation()
  const captain = isCaptain(team, userId)
  const members = sortMembers(team.members)
  const hidden = members.length - SHOWN_MEMBERS
  const headingId = `team-${team.id}-name`

  return (
    <Card withBorder radius="md" padding="md" component="article" aria-labelledby={headingId}>
      <Stack gap="sm" h="100%">
        <Group wrap="nowrap" gap="sm" align="flex-start">
          <Avatar src={team.avatar} name={team.name} alt="" size={56} radius="md" color="initials" />
          <Stack gap={4} miw={0} style={{ flex: 1 }}>
            <Group gap={6} wrap="nowrap">
              <Title order={2} size="h4" id={headingId} lineClamp={1} style={{ wordBreak: 'break-all' }}>
                {team.name}
              </Title>
              {captain && (
                <Tooltip label={t('team.card.you_captain')}>
                  <IconCrown
                    size={18}
                    color="var(--mantine-color-yellow-filled)"
                    role="img"
                    aria-label={t('team.card.you_captain')}
                    style={{ flexShrink: 0 }}
                  />
                </Tooltip>
              )}
            </Group>
            <Group gap={6}>
              <Badge variant="light" size="sm">
                {t('team.card.members', { count: team.members.length })}
              </Badge>
              {team.locked && (
                <Badge
                  color="orange"
                  variant="light"
                  size="sm"
                  leftSection={<IconLock size={12} aria-hidden />}
                >
                  {t('team.card.locked')}
                </Badge>
              )}
            </Group>
          </Stack>
        </Group>
        <Text
          size="sm"
          c={team.bio ? undefined : 'dimmed'}
          fs={team.bio ? undefined : 'italic'}
          lineClamp={2}
        >
          {team.bio || t('team.card.no_bio')}
        </Text>
        <Group justify="space-between" mt="auto" wrap="nowrap">
          <Avatar.Group spacing="sm" aria-label={t('team.card.member_list')} role="list">
            {members.slice(0, SHOWN_MEMBERS).map((m) => (
              <Tooltip key={m.id} label={m.userName}>
                <Avatar
                  src={m.avatar}
                  name={m.userName}
                  alt={m.userName}
                  color="initials"
                  radius="xl"
                  size="md"
                  role="listitem"
                />
              </Tooltip>
            ))}
            {hidden > 0 && (
              <Avatar
                radius="xl"
                size="md"
                role="listitem"
                aria-label={t('team.card.more', { count: hidden })}
              >
                +{hidden}
              </Avatar>
            )}
          </Avatar.Group>
          <Button
            variant="light"
            onClick={onManage}
            leftSection={<IconSettings size={16} aria-hidden />}
            aria-label={t('team.card.manage_named', { name: team.name })}
          >
            {t('team.card.manage')}
          </Button>
        </Group>
      </Stack>
    </Card>
  )
}
