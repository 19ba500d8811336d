import { Center, Stack, Text, Title } from '@mantine/core'
import { IconTools } from '@tabler/icons-react'
import { usePageTitle } from '@/hooks/use-page-title'
import { useTranslation } from '@/i18n'

/** Stands in for a screen that a later release brings. */
export function ComingSoon({ title }: { title: string }) {
  const { t } = useTranslation()
  usePageTitle(title)
  return (
    <Center mih="60vh">
      <Stack align="center" gap="xs" maw={420} ta="center">
        <IconTools size={48} stroke={1.5} aria-hidden />
        <Title order={1} size="h2">
          {title}
        </Title>
        <Text fw={600}>{t('common.coming_soon.title')}</Text>
        <Text c="dimmed">{t('common.coming_soon.body')}</Text>
      </Stack>
    </Center>
  )
}
