import { awardedScore } from '@engine/blood-bonus.ts'
import { Group, Input, NumberInput, Text } from '@mantine/core'
import { useTranslation } from '@/i18n'
import { type BonusPercents, percentsToBonus } from '../blood-bonus-form'
import '@mantine/core/styles/NumberInput.css'

const EXAMPLE_SCORE = 500

/** First, second and third blood bonuses as percentages, with what they give on a sample score. */
export function BloodBonusFields({
  value,
  onChange,
  error,
}: {
  value: BonusPercents
  onChange: (value: BonusPercents) => void
  error?: string
}) {
  const { t } = useTranslation()
  const packed = percentsToBonus(value)
  const set = (i: number, v: number | string) => {
    const next = [...value] as BonusPercents
    next[i] = typeof v === 'number' ? v : Number.NaN
    onChange(next)
  }
  const ranks = ['first', 'second', 'third'] as const

  return (
    <Input.Wrapper
      label={t('admin.game.field.blood_bonus')}
      description={t('admin.game.field.blood_bonus_hint')}
      error={error}
    >
      <Group grow mt={6} align="flex-start" preventGrowOverflow={false} wrap="wrap">
        {ranks.map((rank, i) => (
          <NumberInput
            key={rank}
            label={t(`admin.game.field.blood_${rank}`)}
            value={Number.isNaN(value[i]!) ? '' : value[i]}
            onChange={(v) => set(i, v)}
            min={0}
            max={100}
            step={0.5}
            decimalScale={1}
            suffix=" %"
            miw={110}
          />
        ))}
      </Group>
      {packed !== null && (
        <Text size="xs" c="dimmed" mt={6}>
          {t('admin.game.field.blood_example', {
            score: EXAMPLE_SCORE,
            first: awardedScore(EXAMPLE_SCORE, packed, 1),
            second: awardedScore(EXAMPLE_SCORE, packed, 2),
            third: awardedScore(EXAMPLE_SCORE, packed, 3),
          })}
        </Text>
      )}
    </Input.Wrapper>
  )
}
