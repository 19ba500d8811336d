import { ActionIcon, type ActionIconProps, Avatar } from '@mantine/core'
import type { ComponentProps } from 'react'
import type { Profile } from '@/features/account/api'
import { useTranslation } from '@/i18n'
import classes from './main-layout.module.css'

/** The account menu's button (user-menu.tsx), shown alone until the menu's code has loaded. */
export function UserButton({
  user,
  ...props
}: { user: Pick<Profile, 'userName' | 'avatar'> } & ActionIconProps & ComponentProps<'button'>) {
  const { t } = useTranslation()
  return (
    <ActionIcon
      variant="subtle"
      size="lg"
      radius="xl"
      aria-label={`${t('common.user.menu')}: ${user.userName}`}
      {...props}
    >
      <Avatar src={user.avatar} alt="" size={32} radius="xl" color="brand">
        {/* The initials are a picture of the name the button's label says: drawn by CSS, so
            they are not text that the label would have to contain. */}
        <span className={classes.initials} data-initials={user.userName.slice(0, 2).toUpperCase()} />
      </Avatar>
    </ActionIcon>
  )
}
