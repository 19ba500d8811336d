import { Anchor, Code, Paper, Stack, Text, Title } from '@mantine/core'
import { useTranslation } from '@/i18n'
import { type BuildInfo, isValidBuildInfo } from '@/utils/build-info'
import { formatDateTime } from '@/utils/format-date'
import { commitUrl, versionOf } from '../build-links'
import classes from './about.module.css'

/** Version, commit and build time, or "not an official build" when the stamp is implausible. */
export function BuildInfoCard({ info }: { info: Partial<BuildInfo> | undefined }) {
  const { t } = useTranslation()
  const valid = isValidBuildInfo(info)
  const commit = valid ? commitUrl(info) : null
  return (
    <Paper withBorder radius="md" p="lg" component="section" aria-labelledby="about-build">
      <Title order={2} size="h4" id="about-build" mb="sm">
        {t('about.build.title')}
      </Title>
      {valid ? (
        <dl className={classes.facts}>
          <dt>{t('about.build.version')}</dt>
          <dd>{versionOf(info)}</dd>
          <dt>{t('about.build.commit')}</dt>
          <dd>
            {commit ? (
              <Anchor href={commit} target="_blank" rel="noopener noreferrer">
                <Code>{info.sha.slice(0, 10)}</Code>
              </Anchor>
            ) : (
              <Code>{info.sha.slice(0, 10)}</Code>
            )}
          </dd>
          <dt>{t('about.build.time')}</dt>
          <dd>
            <time dateTime={info.timestamp}>{formatDateTime(Date.parse(info.buildTime))}</time>
          </dd>
        </dl>
      ) : (
        <Stack gap={4}>
          <Text fw={600}>{t('about.build.unofficial')}</Text>
          <Text size="sm" c="dimmed">
            {t('about.build.unofficial_hint')}
          </Text>
        </Stack>
      )}
    </Paper>
  )
}
