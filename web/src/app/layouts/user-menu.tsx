import { Menu } from '@mantine/core'
import { IconDatabaseX, IconLogout, IconUser } from '@tabler/icons-react'
import { Link, useNavigate } from 'react-router'
import { clearCache } from '@/api/cache'
import { FRAME_MENU } from '@/components/frame-menu'
import { useLogout, useUser } from '@/features/account/api'
import { paths } from '@/features/paths'
import { useTranslation } from '@/i18n'
import { notify } from '@/utils/notify'
import { UserButton } from './user-button'
import classes from './user-menu.module.css'

/**
 * The account control at the bottom of the navigation: profile, cache, log out. Loaded after
 * the frame's first render (lazy-menu.tsx).
 */
export default function UserMenu({ defaultOpened }: { defaultOpened?: boolean }) {
  const { t } = useTranslation()
  const { user } = useUser()
  const logout = useLogout()
  const navigate = useNavigate()

  // Visitors find Log in and Register among the navigation items instead.
  if (!user) return null

  return (
    <Menu {...FRAME_MENU} defaultOpened={defaultOpened}>
      <Menu.Target>
        <UserButton user={user} />
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
          className={classes.danger}
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
