import { Button, Code, Group, List, Stack, Text } from '@mantine/core'
import { IconCircleCheck, IconCircleDashed, IconCircleX, IconStethoscope } from '@tabler/icons-react'
import { useState } from 'react'
import { useTranslation } from '@/i18n'
import { notify } from '@/utils/notify'
import { type ContainerCheckResult, checkContainer } from '../api'

type Step = ContainerCheckResult['steps'][number]

const ICON = {
  passed: <IconCircleCheck size={18} color="var(--mantine-color-teal-text)" aria-hidden />,
  failed: <IconCircleX size={18} color="var(--mantine-color-red-text)" aria-hidden />,
  skipped: <IconCircleDashed size={18} color="var(--mantine-color-dimmed)" aria-hidden />,
}

/** What to show under a step: the engine's words on a failure, and a plain word when unchecked. */
function StepDetail({ step }: { step: Step }) {
  const { t } = useTranslation()
  if (step.step === 'flag' && step.status === 'skipped')
    return (
      <Text size="xs" c="dimmed">
        {t('admin.challenge.check.flag_unchecked')}
      </Text>
    )
  if (step.status === 'failed' && step.detail)
    return (
      <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
        {step.detail}
      </Code>
    )
  if (step.status === 'passed' && step.detail && step.step !== 'image')
    return (
      <Text size="xs" c="dimmed" style={{ wordBreak: 'break-word' }}>
        {step.detail}
      </Text>
    )
  return null
}

/**
 * The container check in the "Ready to play?" panel: runs the saved image as a team would get it
 * (on the server's engine, about half a minute) and shows the checklist it comes back with.
 */
export function ContainerCheck({ gameId, challengeId }: { gameId: number; challengeId: number }) {
  const { t } = useTranslation()
  const [busy, setBusy] = useState(false)
  const [result, setResult] = useState<ContainerCheckResult | null>(null)

  const run = async () => {
    setBusy(true)
    try {
      setResult(await checkContainer(gameId, challengeId))
    } catch (err) {
      notify.error(err)
    } finally {
      setBusy(false)
    }
  }

  return (
    <Stack gap="xs" component="section" aria-labelledby="container-check-title">
      <Group justify="space-between" gap="sm" wrap="wrap">
        <Text fw={600} size="sm" id="container-check-title">
          {t('admin.challenge.check.title')}
        </Text>
        <Button
          size="xs"
          variant="light"
          loading={busy}
          onClick={run}
          leftSection={<IconStethoscope size={16} aria-hidden />}
        >
          {result ? t('admin.challenge.check.again') : t('admin.challenge.check.run')}
        </Button>
      </Group>
      <Text size="xs" c="dimmed">
        {busy ? t('admin.challenge.check.running') : t('admin.challenge.check.hint')}
      </Text>
      {result && !busy && (
        <>
          <List spacing={6} size="sm" aria-label={t('admin.challenge.check.title')}>
            {result.steps.map((step) => (
              <List.Item key={step.step} icon={ICON[step.status]}>
                <Text size="sm" span>
                  {t(`admin.challenge.check.step_${step.step}`, { port: String(result.port) })}
                  {' — '}
                  {t(`admin.challenge.check.status_${step.status}`)}
                </Text>
                <StepDetail step={step} />
              </List.Item>
            ))}
          </List>
          <Text size="sm" role="status" c={result.passed ? 'teal' : 'red'}>
            {result.passed ? t('admin.challenge.check.passed') : t('admin.challenge.check.failed')}
          </Text>
        </>
      )}
    </Stack>
  )
}
