import { Group, Stack, Title } from '@mantine/core'
import { hasRole, useUser } from '@/features/account/api'
import { usePageTitle } from '@/features/info/use-page-title'
import { NewPostButton } from '@/features/posts/components/new-post-button'
import { PostList } from '@/features/posts/components/post-list'
import { useTranslation } from '@/i18n'

export default function PostsPage() {
  const { t } = useTranslation()
  const { user } = useUser()
  const admin = hasRole(user?.role, 'Admin')
  usePageTitle(t('post.title'))
  return (
    <Stack gap="lg" maw={880} mx="auto" w="100%">
      <Group justify="space-between" gap="sm">
        <Title order={1}>{t('post.title')}</Title>
        {admin && <NewPostButton />}
      </Group>
      <PostList admin={admin} />
    </Stack>
  )
}
