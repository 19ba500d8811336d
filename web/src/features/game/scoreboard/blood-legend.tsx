import { bloodBonusLabel, unpackBloodBonus } from '@engine/blood-bonus.ts'
import { Group, Text } from '@mantine/core'
import { useTranslation } from '@/i18n'
import { BLOOD_TYPES, SolveIcon, solveTypeKey } from '../components/blood-icon'

/** What the marks mean, with the game's blood bonuses as percentages. */
export function BloodLegend({ bloodBonus }: { bloodBonus: number }) {
  const { t } = useTranslation()
  const parts = bloodBonus === 0 ? null : unpackBloodBonus(bloodBonus)
  return (
    <Group
      gap="md"
      component="ul"
      m={0}
      p={0}
      style={{ listStyle: 'none' }}
      aria-label={t('game.scoreboard.legend')}
    >
      {BLOOD_TYPES.map((type, i) => (
        <Group key={type} component="li" gap={4} wrap="nowrap">
          <SolveIcon type={type} />
          <Text size="sm">
            {t(solveTypeKey(type))}
            {parts ? ` ${bloodBonusLabel(parts[i]!)}` : ''}
          </Text>
        </Group>
      ))}
      <Group component="li" gap={4} wrap="nowrap">
        <SolveIcon type="Normal" />
        <Text size="sm">{t(solveTypeKey('Normal'))}</Text>
      </Group>
      {!parts && (
        <Text component="li" size="sm" c="dimmed">
          {t('game.scoreboard.no_bonus')}
        </Text>
      )}
    </Group>
  )
}
