import { Stack, Text, Title } from '@mantine/core'
import { usePageTitle } from '@/features/info/use-page-title'
import { ProviderList } from '@/features/oidc/components/provider-list'
import { useTranslation } from '@/i18n'

/** `/admin/identity-providers`: OpenID Connect providers players may sign in with. */
export default function AdminIdentityProvidersPage() {
  const { t } = useTranslation()
  usePageTitle(t('oidc.title'))
  return (
    <Stack gap="md">
      <div>
        <Title order={1} size="h2">
          {t('oidc.title')}
        </Title>
        <Text c="dimmed" mt={4} maw={760}>
          {t('oidc.intro')}
        </Text>
      </div>
      <ProviderList />
    </Stack>
  )
}
