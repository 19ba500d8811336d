import { Title } from '@mantine/core'
import { hasRole, useUser } from '@/features/account/api'
import { HomeLayout } from '@/features/home/components/home-layout'
import { usePageTitle } from '@/features/info/use-page-title'
import { LatestPosts } from '@/features/posts/components/latest-posts'
import { useTranslation } from '@/i18n'

export default function HomePage() {
  const { t } = useTranslation()
  const { user } = useUser()
  usePageTitle()
  return (
    <HomeLayout>
      <section aria-labelledby="latest-posts">
        <Title order={2} size="h4" id="latest-posts" mb="sm">
          {t('post.home.latest')}
        </Title>
        <LatestPosts admin={hasRole(user?.role, 'Admin')} />
      </section>
    </HomeLayout>
  )
}
