import { ActionIcon, Avatar, Menu } from '@mantine/core'
import { IconDatabaseX, IconLogout, IconUser } from '@tabler/icons-react'
import { Link, useNavigate } from 'react-router'
import { clearCache } from '@/api/cache'
import { useLogout, useUser } from '@/features/account/api'
import { paths } from '@/features/paths'
import { useTranslation } from '@/i18n'
import { notify } from '@/utils/notify'
import classes from './main-layout.module.css'

/** The account control at the bottom of the navigation: profile, cache, log out. */
export function UserMenu() {
  const { t } = useTranslation()
  const { user } = useUser()
  const logout = useLogout()
  const navigate = useNavigate()

  // Visitors find Log in and Register among the navigation items instead.
  if (!user) return null

  return (
    <Menu position="right-end" withinPortal shadow="md">
      <Menu.Target>
        <ActionIcon
          variant="subtle"
          size="lg"
          radius="xl"
          aria-label={`${t('common.user.menu')}: ${user.userName}`}
        >
          <Avatar src={user.avatar} alt="" size={32} radius="xl" color="brand">
            {/* The initials are a picture of the name the button's label says: drawn by CSS, so
                they are not text that the label would have to contain. */}
            <span className={classes.initials} data-initials={user.userName.slice(0, 2).toUpperCase()} />
          </Avatar>
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{user.userName}</Menu.Label>
        <Menu.Item
          component={Link}
          to={paths.account.profile}
          leftSection={<IconUser size={16} aria-hidden />}
        >
          {t('common.user.profile')}
        </Menu.Item>
        <Menu.Item
          leftSection={<IconDatabaseX size={16} aria-hidden />}
          onClick={async () => {
            await clearCache()
            window.location.reload()
          }}
        >
          {t('common.cache.clear')}
        </Menu.Item>
        <Menu.Divider />
        <Menu.Item
          color="red"
          leftSection={<IconLogout size={16} aria-hidden />}
          onClick={async () => {
            try {
              await logout()
              notify.success(t('common.user.logged_out'))
            } catch (err) {
              notify.error(err)
            }
            navigate(paths.home)
          }}
        >
          {t('common.user.logout')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  )
}
