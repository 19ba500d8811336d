import { Code, Stack, Text, Title } from '@mantine/core'
import { TokenList } from '@/features/admin/components/tokens/token-list'
import { usePageTitle } from '@/features/info/use-page-title'
import { useTranslation } from '@/i18n'

/** `/admin/tokens`: API tokens for scripts that watch games. */
export default function AdminTokensPage() {
  const { t } = useTranslation()
  usePageTitle(t('admin.tokens.title'))
  return (
    <Stack gap="md">
      <div>
        <Title order={1} size="h2">
          {t('admin.tokens.title')}
        </Title>
        <Text c="dimmed" mt={4} maw={760}>
          {t('admin.tokens.intro_before')} <Code>Authorization: Bearer …</Code>
          {t('admin.tokens.intro_after')}
        </Text>
      </div>
      <TokenList />
    </Stack>
  )
}
