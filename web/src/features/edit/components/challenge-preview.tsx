import { Badge, Group, List, Paper, Stack, Text, Title } from '@mantine/core'
import { IconBulb } from '@tabler/icons-react'
import type { ChallengeCategory } from '@/api/types'
import { Markdown } from '@/components/markdown'
import { useTranslation } from '@/i18n'
import { CATEGORY_COLOR } from '../categories'
import '@mantine/core/styles/List.css'

/** The challenge roughly as a player opens it: title, score, text and hints. */
export function ChallengePreview({
  title,
  category,
  score,
  content,
  hints,
}: {
  title: string
  category: ChallengeCategory
  score: number
  content: string
  hints: string[]
}) {
  const { t } = useTranslation()
  const shownHints = hints.filter((h) => h.trim())
  return (
    <Paper withBorder p="md" radius="md" aria-label={t('admin.challenge.preview')} component="section">
      <Stack gap="sm">
        <Text size="xs" tt="uppercase" c="dimmed" fw={600}>
          {t('admin.challenge.preview')}
        </Text>
        <Group justify="space-between" wrap="nowrap">
          <Group gap="xs" miw={0}>
            <Badge color={CATEGORY_COLOR[category]} variant="light">
              {t(`admin.category.${category}`)}
            </Badge>
            <Title order={3} size="h4" style={{ wordBreak: 'break-word' }}>
              {title || t('admin.challenge.untitled')}
            </Title>
          </Group>
          <Text fw={700} style={{ whiteSpace: 'nowrap' }}>
            {t('admin.challenge.points', { score })}
          </Text>
        </Group>
        {content.trim() ? (
          <Markdown source={content} />
        ) : (
          <Text size="sm" c="dimmed">
            {t('admin.challenge.no_content')}
          </Text>
        )}
        {shownHints.length > 0 && (
          <List
            spacing={4}
            size="sm"
            icon={<IconBulb size={16} aria-hidden color="var(--mantine-color-yellow-5)" />}
          >
            {shownHints.map((hint, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: hints have no ids
              <List.Item key={i}>
                <Markdown source={hint} inline />
              </List.Item>
            ))}
          </List>
        )}
      </Stack>
    </Paper>
  )
}
