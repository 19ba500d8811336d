import { Anchor, Button, Group, Stack, Text, TextInput, Title } from '@mantine/core'
import { IconArrowLeft, IconKey, IconLogout, IconMail } from '@tabler/icons-react'
import { lazy, Suspense, useState } from 'react'
import { Link, useNavigate } from 'react-router'
import { paths } from '@/features/paths'
import { useTranslation } from '@/i18n'
import { notify } from '@/utils/notify'
import { type Profile, useLogout } from '../api'
import classes from './account.module.css'
import { AvatarEditor } from './avatar-editor'
import { ProfileForm } from './profile-form'

// The dialogs load when opened: most visits to the profile open neither.
const ChangeEmailDialog = lazy(() => import('./change-email-dialog'))
const ChangePasswordDialog = lazy(() => import('./change-password-dialog'))
// Identity providers (our addition, often off) load after the rest of the profile.
const LinkedIdentities = lazy(() =>
  import('@/features/oidc/components/linked-identities').then((m) => ({ default: m.LinkedIdentities })),
)

/** The signed-in user's own page: avatar, fields, e-mail and password changes, log out. */
export function ProfileView({ user }: { user: Profile }) {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const logout = useLogout()
  const [dialog, setDialog] = useState<'email' | 'password' | null>(null)
  const close = () => setDialog(null)

  const signOut = async () => {
    try {
      await logout()
      notify.success(t('common.user.logged_out'))
      navigate(paths.home)
    } catch (err) {
      notify.error(err)
    }
  }

  const email = (
    <Group gap="xs" align="flex-end" wrap="nowrap">
      <TextInput
        label={t('account.field.email')}
        value={user.email}
        readOnly
        style={{ flex: 1, minWidth: 0 }}
      />
      <Button
        variant="light"
        onClick={() => setDialog('email')}
        leftSection={<IconMail size={16} aria-hidden />}
        aria-label={t('account.profile.change_email')}
      >
        {t('account.profile.change')}
      </Button>
    </Group>
  )

  return (
    <Stack gap="lg">
      <div className={classes.profileHead}>
        <AvatarEditor user={user} />
        <Stack gap={4} className={classes.profileName}>
          <Title order={1} size="h2" style={{ overflowWrap: 'anywhere' }}>
            {user.userName}
          </Title>
          <Text c="dimmed" size="sm" style={{ overflowWrap: 'anywhere' }}>
            {user.email}
          </Text>
          <Text size="sm" fw={600} c="var(--mantine-primary-color-light-color)">
            {t(`account.role.${user.role}`)}
          </Text>
        </Stack>
      </div>

      <section aria-labelledby="profile-details" className={classes.section}>
        <Title order={2} size="h4" id="profile-details" mb="sm">
          {t('account.profile.details')}
        </Title>
        <ProfileForm user={user} emailSlot={email} />
      </section>

      <section aria-labelledby="profile-security" className={classes.section}>
        <Title order={2} size="h4" id="profile-security" mb="sm">
          {t('account.profile.security')}
        </Title>
        <Group gap="sm">
          <Button
            variant="light"
            leftSection={<IconKey size={16} aria-hidden />}
            onClick={() => setDialog('password')}
          >
            {t('account.profile.change_password')}
          </Button>
          <Button
            variant="light"
            color="red"
            leftSection={<IconLogout size={16} aria-hidden />}
            onClick={signOut}
          >
            {t('common.user.logout')}
          </Button>
        </Group>
      </section>

      <Suspense fallback={null}>
        <LinkedIdentities className={classes.section} />
      </Suspense>

      <Anchor component={Link} to={paths.home} size="sm">
        <Group gap={4} component="span">
          <IconArrowLeft size={14} aria-hidden />
          {t('account.profile.home')}
        </Group>
      </Anchor>

      <Suspense fallback={null}>
        {dialog === 'email' && <ChangeEmailDialog current={user.email} onClose={close} />}
        {dialog === 'password' && <ChangePasswordDialog onClose={close} />}
      </Suspense>
    </Stack>
  )
}
