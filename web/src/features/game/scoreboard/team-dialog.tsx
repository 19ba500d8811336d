import { Badge, Group, Modal, Stack, Table, Text } from '@mantine/core'
import { useMediaQuery } from '@mantine/hooks'
import { useTranslation } from '@/i18n'
import { formatDateTime } from '@/utils/format-date'
import type { ChallengeInfo, ScoreboardItem } from '../api'
import { categoryColor, categoryLabelKey } from '../categories'
import { SolveIcon, solveTypeKey } from '../components/blood-icon'
import { TeamStats } from './team-stats'
import '@mantine/core/styles/Overlay.css'
import '@mantine/core/styles/ModalBase.css'
import '@mantine/core/styles/Modal.css'
import '@mantine/core/styles/Table.css'
import '@mantine/core/styles/Badge.css'

/** One team of the board: rank, score, bio, and each solve (challenge, points, time, blood). */
export default function TeamDialog({
  team,
  challenges,
  challengeCount,
  onClose,
}: {
  team: ScoreboardItem
  challenges: Map<number, ChallengeInfo>
  challengeCount: number
  onClose: () => void
}) {
  const { t } = useTranslation()
  const phone = useMediaQuery('(max-width: 48em)')
  const solves = [...team.solvedChallenges].sort((a, b) => a.time - b.time)
  return (
    <Modal
      opened
      onClose={onClose}
      closeButtonProps={{ 'aria-label': t('common.button.close') }}
      title={team.name}
      size="lg"
      fullScreen={Boolean(phone)}
    >
      <Stack>
        <Group gap="xs">{team.division && <Badge color="gray">{team.division}</Badge>}</Group>
        {team.bio && <Text c="dimmed">{team.bio}</Text>}
        <TeamStats team={team} challengeCount={challengeCount} />
        {solves.length === 0 ? (
          <Text c="dimmed">{t('game.scoreboard.no_solves')}</Text>
        ) : (
          <Table.ScrollContainer minWidth={320}>
            <Table striped verticalSpacing={6}>
              <Table.Caption>{t('game.scoreboard.solves_caption', { team: team.name })}</Table.Caption>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">{t('game.scoreboard.challenge')}</Table.Th>
                  <Table.Th scope="col">{t('game.scoreboard.type')}</Table.Th>
                  <Table.Th scope="col" ta="end">
                    {t('game.scoreboard.points')}
                  </Table.Th>
                  <Table.Th scope="col">{t('game.scoreboard.time')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {solves.map((solve) => {
                  const challenge = challenges.get(solve.id)
                  return (
                    <Table.Tr key={solve.id}>
                      <Table.Td>
                        <Text size="sm" fw={500}>
                          {challenge?.title ?? `#${solve.id}`}
                        </Text>
                        {challenge && (
                          <Text size="xs" style={{ color: categoryColor(challenge.category) }}>
                            {t(categoryLabelKey(challenge.category))}
                          </Text>
                        )}
                        {solve.userName && (
                          <Text size="xs" c="dimmed">
                            {solve.userName}
                          </Text>
                        )}
                      </Table.Td>
                      <Table.Td>
                        <Group gap={4} wrap="nowrap">
                          <SolveIcon type={solve.type} size={16} />
                          <Text size="sm">{t(solveTypeKey(solve.type))}</Text>
                        </Group>
                      </Table.Td>
                      <Table.Td ta="end">{solve.score}</Table.Td>
                      <Table.Td>
                        <time dateTime={new Date(solve.time).toISOString()}>
                          {formatDateTime(solve.time, { dateStyle: 'short' })}
                        </time>
                      </Table.Td>
                    </Table.Tr>
                  )
                })}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
    </Modal>
  )
}
