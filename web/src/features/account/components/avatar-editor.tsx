import { Stack } from '@mantine/core'
import { ImageUpload } from '@/components/image-upload'
import { useTranslation } from '@/i18n'
import { useProfileActions } from '../actions'
import type { Profile } from '../api'
import { UserAvatar } from './user-avatar'

/** The user's avatar and the upload that replaces it (the profile refreshes to show the new one). */
export function AvatarEditor({ user }: { user: Profile }) {
  const { t } = useTranslation()
  const { refresh } = useProfileActions()
  return (
    <Stack gap="xs" align="center">
      <UserAvatar
        src={user.avatar}
        name={user.userName}
        label={t('account.profile.avatar_of', { name: user.userName })}
      />
      <ImageUpload
        url="/api/account/avatar"
        label={t('account.profile.avatar_upload')}
        onUploaded={refresh}
      />
    </Stack>
  )
}
