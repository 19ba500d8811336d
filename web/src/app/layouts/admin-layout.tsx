import { Box } from '@mantine/core'
import {
  IconFiles,
  IconFileText,
  IconFingerprint,
  IconFlag,
  IconKey,
  IconServer,
  IconSettings,
  IconUser,
  IconUsersGroup,
  IconWebhook,
} from '@tabler/icons-react'
import { Outlet } from 'react-router'
import { paths } from '@/features/paths'
import { useTranslation } from '@/i18n'
import { RequireRole } from '@/pages/guards'
import { AdminTabs } from './admin-tabs'

/** The administration area: admins only, with the area's tabs above every screen. */
export default function AdminLayout() {
  const { t } = useTranslation()
  const tabs = [
    { to: paths.admin.games, label: t('admin.tabs.games'), icon: IconFlag },
    { to: paths.admin.teams, label: t('admin.tabs.teams'), icon: IconUsersGroup },
    { to: paths.admin.users, label: t('admin.tabs.users'), icon: IconUser },
    { to: paths.admin.instances, label: t('admin.tabs.instances'), icon: IconServer },
    { to: paths.admin.logs, label: t('admin.tabs.logs'), icon: IconFileText },
    { to: paths.admin.files, label: t('admin.tabs.files'), icon: IconFiles },
    { to: paths.admin.tokens, label: t('admin.tabs.tokens'), icon: IconKey },
    {
      to: paths.admin.identityProviders,
      label: t('admin.tabs.identity_providers'),
      icon: IconFingerprint,
    },
    { to: paths.admin.webhooks, label: t('admin.tabs.webhooks'), icon: IconWebhook },
    { to: paths.admin.settings, label: t('admin.tabs.settings'), icon: IconSettings },
  ]
  return (
    <RequireRole min="Admin">
      <Box maw={1280} mx="auto">
        <AdminTabs tabs={tabs} label={t('admin.tabs.label')} />
        <Outlet />
      </Box>
    </RequireRole>
  )
}
