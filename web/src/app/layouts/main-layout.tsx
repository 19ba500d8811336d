import { AppShell, Burger, Group, Stack } from '@mantine/core'
import { useDisclosure } from '@mantine/hooks'
import {
  type Icon,
  IconFlag,
  IconHome,
  IconInfoCircle,
  IconLogin,
  IconNews,
  IconSettings,
  IconUserPlus,
  IconUsersGroup,
} from '@tabler/icons-react'
import { lazy, Suspense, useEffect } from 'react'
import { NavLink, Outlet, useLocation } from 'react-router'
import { ColorSchemeToggle } from '@/components/color-scheme-toggle'
import { LanguageButton } from '@/components/language/language-button'
import { PageLoader } from '@/components/page-loader'
import { ThemeColorControl } from '@/components/theme-color-control'
import { hasRole, useUser } from '@/features/account/api'
import { useConfig } from '@/features/info/api'
import { loginHref, paths } from '@/features/paths'
import { useTranslation } from '@/i18n'
import { Brand } from './brand'
import classes from './main-layout.module.css'
// Styles of the components this frame adds over the account pages' set (theme/styles.ts).
import '@mantine/core/styles/AppShell.css'
import '@mantine/core/styles/Burger.css'
// The menus' and the dropdowns' styles stay here: pages' selects and popovers rely on them too.
import '@mantine/core/styles/ScrollArea.css'
import '@mantine/core/styles/Popover.css'
import '@mantine/core/styles/Menu.css'
import '@mantine/core/styles/Avatar.css'
import '@mantine/core/styles/Divider.css'
import { PasswordPrompt } from '@/features/account/components/password-prompt'
import { LazyMenu } from './lazy-menu'
import { UserButton } from './user-button'

/** Only contests whose containers go through the platform proxy load the tunnel control. */
const TunnelMenu = lazy(() => import('@/features/tunnel/tunnel-menu'))
const loadLanguageMenu = () => import('@/components/language/language-menu')
const LanguageMenu = lazy(loadLanguageMenu)
const loadUserMenu = () => import('./user-menu')
const UserMenu = lazy(loadUserMenu)

interface Item {
  to: string
  label: string
  icon: Icon
  end?: boolean
}

function NavItems({ items, drawer }: { items: Item[]; drawer?: boolean }) {
  return (
    <Stack
      gap={4}
      className={drawer ? classes.drawer : classes.rail}
      component="ul"
      p={0}
      m={0}
      style={{ listStyle: 'none' }}
    >
      {items.map(({ to, label, icon: ItemIcon, end }) => (
        <li key={to} style={{ width: drawer ? '100%' : undefined }}>
          <NavLink to={to} end={end} className={classes.item}>
            <ItemIcon size={22} stroke={1.6} aria-hidden />
            <span>{label}</span>
          </NavLink>
        </li>
      ))}
    </Stack>
  )
}

/**
 * The frame of every signed-in or public page: a labelled navigation rail on the left on
 * tablets and desktops, a top bar with a menu on phones (below 48em). Its own chunk: the
 * account pages do without its menus and tooltips.
 */
export default function MainLayout() {
  const { t } = useTranslation()
  const { user, isLoading, error } = useUser()
  const [opened, { toggle, close }] = useDisclosure(false)
  const { pathname } = useLocation()

  // Following a link in the phone menu closes it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the path change is the trigger
  useEffect(() => close(), [pathname, close])

  const items: Item[] = [
    { to: paths.home, label: t('common.nav.home'), icon: IconHome, end: true },
    { to: paths.posts, label: t('common.nav.posts'), icon: IconNews },
    { to: paths.games, label: t('common.nav.games'), icon: IconFlag },
    { to: paths.teams, label: t('common.nav.teams'), icon: IconUsersGroup },
    { to: paths.about, label: t('common.nav.about'), icon: IconInfoCircle },
  ]
  if (hasRole(user?.role, 'Admin'))
    items.push({ to: paths.admin.root, label: t('common.nav.admin'), icon: IconSettings })
  // Visitors see both ways in, in words (the register page says so when sign-up is closed).
  // Not while the server could not say who is signed in: that visitor may well be signed in.
  if (!user && !isLoading && !error)
    items.push(
      { to: loginHref(pathname), label: t('common.user.login'), icon: IconLogin },
      { to: paths.account.register, label: t('common.user.register'), icon: IconUserPlus },
    )

  const { config } = useConfig()
  const controls = (
    <>
      {config?.portMapping === 'PlatformProxy' && (
        <Suspense fallback={null}>
          <TunnelMenu title={config.title} />
        </Suspense>
      )}
      <LazyMenu menu={LanguageMenu} load={loadLanguageMenu} button={(wake) => <LanguageButton {...wake} />} />
      <ColorSchemeToggle />
      <ThemeColorControl />
      {user && (
        <LazyMenu
          menu={UserMenu}
          load={loadUserMenu}
          button={(wake) => <UserButton user={user} {...wake} />}
        />
      )}
    </>
  )

  return (
    <AppShell
      header={{ height: { base: 56, sm: 0 } }}
      navbar={{ width: 80, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding={{ base: 'sm', sm: 'lg' }}
    >
      <a href="#main" className="skip-link">
        {t('common.nav.skip')}
      </a>
      <AppShell.Header hiddenFrom="sm" px="sm">
        <Group h="100%" justify="space-between" wrap="nowrap">
          <Brand withTitle size={32} />
          <Burger
            opened={opened}
            onClick={toggle}
            size="sm"
            aria-label={opened ? t('common.nav.close_menu') : t('common.nav.open_menu')}
            aria-expanded={opened}
            aria-controls="main-nav"
          />
        </Group>
      </AppShell.Header>
      <AppShell.Navbar id="main-nav" p="xs" component="nav" aria-label={t('common.nav.main')}>
        <AppShell.Section visibleFrom="sm" mb="md" style={{ display: 'flex', justifyContent: 'center' }}>
          <Brand />
        </AppShell.Section>
        {/* Native scrolling: Mantine's ScrollArea needs the dropdown-placement library. */}
        <AppShell.Section grow style={{ overflowY: 'auto' }}>
          <NavItems items={items} drawer={opened} />
        </AppShell.Section>
        <AppShell.Section>
          <Stack align="center" gap={6} visibleFrom="sm">
            {controls}
          </Stack>
          <Group justify="center" gap="md" hiddenFrom="sm" py="sm">
            {controls}
          </Group>
        </AppShell.Section>
      </AppShell.Navbar>
      <AppShell.Main id="main" tabIndex={-1}>
        <PasswordPrompt />
        <Suspense fallback={<PageLoader />}>
          <Outlet />
        </Suspense>
      </AppShell.Main>
    </AppShell>
  )
}
