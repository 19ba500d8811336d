import { Stack, Text, Title } from '@mantine/core'
import { GameList } from '@/features/game/components/game-list'
import { usePageTitle } from '@/features/info/use-page-title'
import { useTranslation } from '@/i18n'

export default function GamesPage() {
  const { t } = useTranslation()
  usePageTitle(t('game.list.title'))
  return (
    <Stack gap="lg">
      <div>
        <Title order={1}>{t('game.list.title')}</Title>
        <Text c="dimmed">{t('game.list.subtitle')}</Text>
      </div>
      <GameList />
    </Stack>
  )
}
