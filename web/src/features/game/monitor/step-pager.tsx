import { Button, Group, Text } from '@mantine/core'
import { IconChevronLeft, IconChevronRight, IconChevronsLeft } from '@tabler/icons-react'
import { useTranslation } from '@/i18n'

/** First / previous / next for lists without a total (the monitor's, newest first). */
export function StepPager({
  page,
  hasNext,
  onChange,
}: {
  page: number
  hasNext: boolean
  onChange: (page: number) => void
}) {
  const { t } = useTranslation()
  if (page === 1 && !hasNext) return null
  return (
    <Group component="nav" aria-label={t('game.pager.label')} justify="center" gap="xs">
      <Button
        variant="default"
        size="xs"
        disabled={page === 1}
        onClick={() => onChange(1)}
        leftSection={<IconChevronsLeft size={14} aria-hidden />}
      >
        {t('game.pager.first')}
      </Button>
      <Button
        variant="default"
        size="xs"
        disabled={page === 1}
        onClick={() => onChange(page - 1)}
        leftSection={<IconChevronLeft size={14} aria-hidden />}
      >
        {t('game.pager.previous')}
      </Button>
      <Text size="sm" aria-current="page">
        {t('game.pager.page', { page })}
      </Text>
      <Button
        variant="default"
        size="xs"
        disabled={!hasNext}
        onClick={() => onChange(page + 1)}
        rightSection={<IconChevronRight size={14} aria-hidden />}
      >
        {t('game.pager.next')}
      </Button>
    </Group>
  )
}
