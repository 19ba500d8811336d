import { Box, Button, Center, Group, Stack, Text, Title } from '@mantine/core'
import { Component, type ErrorInfo, type ReactNode } from 'react'
import { clearCache } from '@/api/cache'
import { useTranslation } from '@/i18n'
import { errorMessage } from '@/utils/error-message'

/** The error screen of the seed (section 2): message, stack, a hint to report, retry, clean cache. */
export function ErrorScreen({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { t } = useTranslation()
  const stack = error instanceof Error ? error.stack : undefined
  return (
    <Center mih="100vh" p="md" component="main">
      <Stack maw={720} w="100%" role="alert">
        <Title order={1} size="h2">
          {t('common.error.screen_title')}
        </Title>
        <Text fw={600}>{errorMessage(error, t('common.error.unknown'))}</Text>
        <Text c="dimmed" size="sm">
          {t('common.error.screen_hint')}
        </Text>
        {stack && (
          <details>
            <summary>{t('common.error.stack')}</summary>
            <Box
              component="pre"
              mah={280}
              p="sm"
              ff="monospace"
              fz="xs"
              bg="var(--mantine-color-default-hover)"
              style={{ overflow: 'auto', borderRadius: 8 }}
            >
              {stack}
            </Box>
          </details>
        )}
        <Group>
          <Button onClick={onRetry}>{t('common.button.retry')}</Button>
          <Button
            variant="default"
            onClick={async () => {
              await clearCache()
              location.reload()
            }}
          >
            {t('common.error.clean_cache')}
          </Button>
        </Group>
      </Stack>
    </Center>
  )
}

/** Catches rendering errors below it and shows the error screen; "try again" re-renders. */
export class ErrorBoundary extends Component<{ children: ReactNode }, { error: unknown }> {
  override state = { error: undefined as unknown }

  static getDerivedStateFromError(error: unknown) {
    return { error }
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error(error, info.componentStack)
  }

  override render() {
    if (this.state.error !== undefined)
      return <ErrorScreen error={this.state.error} onRetry={() => this.setState({ error: undefined })} />
    return this.props.children
  }
}
