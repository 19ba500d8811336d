import { UnstyledButton, VisuallyHidden } from '@mantine/core'
import type { CSSProperties } from 'react'
import { useTranslation } from '@/i18n'
import { formatDateTime } from '@/utils/format-date'
import type { ChallengeInfo, ScoreboardItem } from '../api'
import { CATEGORY_META, categoryColor, categoryLabelKey } from '../categories'
import { SolveIcon, solveTypeKey } from '../components/blood-icon'
import type { ColumnGroup } from './board-filter'
import classes from './scoreboard-table.module.css'

type Groups = ColumnGroup<ChallengeInfo>[]

/**
 * The ranking: rank and team (sticky), solved count, score, then one column per challenge under
 * its category, each solve marked with its blood icon or a flag and named for screen readers.
 * On phones only rank, team and score remain.
 */
export function ScoreboardTable({
  rows,
  groups,
  showDivision,
  divisionRanks,
  myTeamId,
  onOpenTeam,
}: {
  rows: ScoreboardItem[]
  groups: Groups
  showDivision: boolean
  /** One division is shown: rank within it. */
  divisionRanks: boolean
  myTeamId: number | undefined
  onOpenTeam: (team: ScoreboardItem) => void
}) {
  const { t } = useTranslation()
  const challenges = groups.flatMap((g) => g.challenges)
  const span = challenges.length ? 2 : 1
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard
    <section className={classes.scroller} tabIndex={0} aria-label={t('game.scoreboard.table')}>
      <table className={classes.table}>
        <thead>
          <tr>
            <th rowSpan={span} scope="col" className={classes.rank}>
              {t('game.scoreboard.rank')}
            </th>
            <th rowSpan={span} scope="col" className={classes.team}>
              {t('game.scoreboard.team')}
            </th>
            {showDivision && (
              <th rowSpan={span} scope="col" className={classes.wide}>
                {t('game.scoreboard.division')}
              </th>
            )}
            <th rowSpan={span} scope="col" className={`${classes.num} ${classes.wide}`}>
              {t('game.scoreboard.solved')}
            </th>
            <th rowSpan={span} scope="col" className={classes.num}>
              {t('game.scoreboard.score')}
            </th>
            {groups.map(({ category, challenges: list }) => {
              const CategoryIcon = (CATEGORY_META[category] ?? CATEGORY_META.Misc).icon
              return (
                <th
                  key={category}
                  colSpan={list.length}
                  scope="colgroup"
                  className={`${classes.category} ${classes.wide}`}
                  style={
                    {
                      color: categoryColor(category),
                      borderTop: `3px solid ${categoryColor(category)}`,
                    } as CSSProperties
                  }
                >
                  <CategoryIcon size={16} aria-hidden style={{ verticalAlign: '-3px', marginInlineEnd: 4 }} />
                  {t(categoryLabelKey(category))}
                </th>
              )
            })}
          </tr>
          {challenges.length > 0 && (
            <tr>
              {challenges.map((c) => (
                <th key={c.id} scope="col" className={`${classes.challenge} ${classes.wide}`} title={c.title}>
                  <span className={classes.challengeTitle}>{c.title}</span>
                  <span style={{ fontWeight: 400, color: 'var(--mantine-color-dimmed)' }}>{c.score}</span>
                </th>
              ))}
            </tr>
          )}
        </thead>
        <tbody>
          {rows.map((item) => {
            const mine = item.id === myTeamId
            const solves = new Map(item.solvedChallenges.map((s) => [s.id, s]))
            return (
              <tr key={item.id} className={mine ? classes.mine : undefined} data-mine={mine || undefined}>
                <td className={classes.rank}>
                  {divisionRanks ? (item.divisionRank ?? item.rank) : item.rank}
                </td>
                <th scope="row" className={classes.team}>
                  <UnstyledButton
                    className={classes.teamButton}
                    onClick={() => onOpenTeam(item)}
                    title={item.name}
                  >
                    {item.name}
                  </UnstyledButton>
                  {mine && <span className={classes.mineTag}>{t('game.scoreboard.your_team')}</span>}
                </th>
                {showDivision && <td className={classes.wide}>{item.division ?? '—'}</td>}
                <td className={`${classes.num} ${classes.wide}`}>{item.solvedCount}</td>
                <td className={classes.num}>
                  <strong>{item.score}</strong>
                </td>
                {challenges.map((c) => {
                  const solve = solves.get(c.id)
                  if (!solve) return <td key={c.id} className={`${classes.cell} ${classes.wide}`} />
                  const label = t('game.scoreboard.solve_label', {
                    type: t(solveTypeKey(solve.type)),
                    challenge: c.title,
                    score: solve.score,
                    time: formatDateTime(solve.time),
                  })
                  return (
                    <td key={c.id} className={`${classes.cell} ${classes.wide}`} title={label}>
                      <SolveIcon type={solve.type} />
                      <VisuallyHidden>{label}</VisuallyHidden>
                    </td>
                  )
                })}
              </tr>
            )
          })}
        </tbody>
      </table>
    </section>
  )
}
