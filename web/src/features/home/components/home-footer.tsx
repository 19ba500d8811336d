import { Anchor, Divider, Stack, Text } from '@mantine/core'
import { Link } from 'react-router'
import { Markdown } from '@/components/markdown'
import { useConfig } from '@/features/info/api'
import { paths } from '@/features/paths'
import { useTranslation } from '@/i18n'
import classes from './home.module.css'
import '@mantine/core/styles/Divider.css'

/** The organisers' footer (Markdown from the settings) and where the software comes from. */
export function HomeFooter() {
  const { t } = useTranslation()
  const { config } = useConfig()
  return (
    <Stack component="footer" gap="sm" className={classes.footer}>
      <Divider />
      {config?.footerInfo && (
        <div className={classes.footerInfo}>
          <Markdown source={config.footerInfo} />
        </div>
      )}
      <Text size="xs" c="dimmed" ta="center">
        <Anchor component={Link} to={paths.about} c="dimmed" inherit>
          {t('common.footer.powered')}
        </Anchor>
      </Text>
    </Stack>
  )
}
