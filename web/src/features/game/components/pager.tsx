import { UnstyledButton } from '@mantine/core'
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react'
import { useTranslation } from '@/i18n'
import { pageItems } from '../page-items'
import classes from './pager.module.css'

/** Numbered pages with previous / next; hidden when everything fits on one page. */
export function Pager({
  pages,
  page,
  onChange,
}: {
  pages: number
  page: number
  onChange: (page: number) => void
}) {
  const { t } = useTranslation()
  if (pages <= 1) return null
  return (
    <nav aria-label={t('game.pager.label')}>
      <ul className={classes.list}>
        <li>
          <UnstyledButton
            className={classes.item}
            disabled={page <= 1}
            onClick={() => onChange(page - 1)}
            aria-label={t('game.pager.previous')}
          >
            <IconChevronLeft size={16} aria-hidden />
          </UnstyledButton>
        </li>
        {pageItems(page, pages).map((item, i) =>
          item === 'gap' ? (
            // biome-ignore lint/suspicious/noArrayIndexKey: at most two gaps, told apart by position
            <li key={`gap-${i}`} className={classes.gap} aria-hidden>
              …
            </li>
          ) : (
            <li key={item}>
              <UnstyledButton
                className={classes.item}
                aria-current={item === page ? 'page' : undefined}
                aria-label={t('game.pager.page', { page: item })}
                onClick={() => onChange(item)}
              >
                {item}
              </UnstyledButton>
            </li>
          ),
        )}
        <li>
          <UnstyledButton
            className={classes.item}
            disabled={page >= pages}
            onClick={() => onChange(page + 1)}
            aria-label={t('game.pager.next')}
          >
            <IconChevronRight size={16} aria-hidden />
          </UnstyledButton>
        </li>
      </ul>
    </nav>
  )
}
