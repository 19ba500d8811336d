import { Button, Center, Stack, Text, Title } from '@mantine/core'
import { IconMapSearch } from '@tabler/icons-react'
import { Link } from 'react-router'
import { usePageTitle } from '@/features/info/use-page-title'
import { paths } from '@/features/paths'
import { useTranslation } from '@/i18n'

export default function NotFound() {
  const { t } = useTranslation()
  usePageTitle(t('common.not_found.title'))
  return (
    <Center mih="60vh">
      <Stack align="center" gap="sm" maw={420} ta="center">
        <IconMapSearch size={56} stroke={1.4} aria-hidden />
        <Title order={1} size="h2">
          {t('common.not_found.title')}
        </Title>
        <Text c="dimmed">{t('common.not_found.body')}</Text>
        <Button component={Link} to={paths.home} variant="light">
          {t('common.not_found.home')}
        </Button>
      </Stack>
    </Center>
  )
}
