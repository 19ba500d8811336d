import { Box, Center, Group, Paper } from '@mantine/core'
import { Outlet } from 'react-router'
import { ColorSchemeToggle } from '@/components/color-scheme-toggle'
import { LanguageSelect } from '@/components/language/language-select'
import { useTranslation } from '@/i18n'
import { Brand } from './brand'

/**
 * The account screens' shell (web-client §2.3): the logo above a centred card, language and
 * scheme in a corner, no navigation. Light on purpose: these screens load under 150 KB.
 */
export function AccountLayout() {
  const { t } = useTranslation()
  return (
    <Box mih="100vh" style={{ display: 'flex', flexDirection: 'column' }}>
      <a href="#main" className="skip-link">
        {t('common.nav.skip')}
      </a>
      <Group justify="space-between" p="sm" component="header">
        <Brand withTitle titleFrom="xs" size={32} />
        <Group gap={4} wrap="nowrap">
          <LanguageSelect />
          <ColorSchemeToggle />
        </Group>
      </Group>
      <Center component="main" id="main" tabIndex={-1} style={{ flex: 1 }} px="sm" pb="xl">
        <Paper w="100%" maw={440} p={{ base: 'md', xs: 'xl' }} withBorder radius="lg" shadow="sm">
          <Outlet />
        </Paper>
      </Center>
    </Box>
  )
}
