import { Button, Group, Stack, Title } from '@mantine/core'
import { IconPlus } from '@tabler/icons-react'
import { Link } from 'react-router'
import { paths } from '@/app/paths'
import { hasRole, useUser } from '@/features/account/api'
import { PostList } from '@/features/posts/components/post-list'
import { usePageTitle } from '@/hooks/use-page-title'
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
        {admin && (
          <Button
            component={Link}
            to={paths.postEdit('new')}
            leftSection={<IconPlus size={16} aria-hidden />}
          >
            {t('post.new')}
          </Button>
        )}
      </Group>
      <PostList admin={admin} />
    </Stack>
  )
}
