import { Anchor, Paper, Stack, Text, Title } from '@mantine/core'
import { IconFlag3 } from '@tabler/icons-react'
import { useConfig } from '@/features/info/api'
import { useTranslation } from '@/i18n'
import type { BuildInfo } from '@/utils/build-info'
import { repoUrl } from '../build-links'
import classes from './about.module.css'
import { BuildInfoCard } from './build-info-card'

/** What this platform runs on: the slogan, a word on Pennant, and the build. */
export function AboutView({ build }: { build: Partial<BuildInfo> | undefined }) {
  const { t } = useTranslation()
  const { config } = useConfig()
  const repo = build ? repoUrl({ repo: build.repo ?? '' }) : null
  return (
    <Stack gap="lg" className={classes.page}>
      <div className={classes.hero}>
        <IconFlag3 size={56} stroke={1.4} className={classes.flag} aria-hidden />
        <div>
          <Title order={1}>{t('about.title', { title: config?.title || 'Pennant' })}</Title>
          <Text c="dimmed" ff="monospace">
            {config?.slogan || 'Hack for fun not for profit'}
          </Text>
        </div>
      </div>
      <Paper withBorder radius="md" p="lg" component="section" aria-labelledby="about-pennant">
        <Title order={2} size="h4" id="about-pennant" mb="sm">
          {t('about.pennant.title')}
        </Title>
        <Stack gap="sm">
          <Text>{t('about.pennant.body')}</Text>
          <Text size="sm" c="dimmed">
            {t('about.pennant.compat')}
          </Text>
          {repo && (
            <Anchor href={repo} target="_blank" rel="noopener noreferrer" size="sm">
              {t('about.pennant.source')}
            </Anchor>
          )}
        </Stack>
      </Paper>
      <BuildInfoCard info={build} />
    </Stack>
  )
}
