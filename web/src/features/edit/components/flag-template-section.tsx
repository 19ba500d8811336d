import { ActionIcon, Alert, Button, Code, Group, List, Stack, Text, TextInput } from '@mantine/core'
import { IconDeviceFloppy, IconEye, IconEyeOff, IconRefresh } from '@tabler/icons-react'
import { type FormEvent, useMemo, useState } from 'react'
import { MONO_INPUT } from '@/components/mono-input'
import { Section } from '@/components/section'
import { useSubmit } from '@/hooks/use-submit'
import { useTranslation } from '@/i18n'
import { type EditChallenge, useChallengeActions, useHashSalt } from '../api'
import { SAMPLE_TEAM_HASH, TEMPLATE_MAX, templateAccepted, templateExamples } from '../flag-rules'
import '@mantine/core/styles/List.css'

function HashSalt({ gameId }: { gameId: number }) {
  const { t } = useTranslation()
  const [shown, setShown] = useState(false)
  const { data, error } = useHashSalt(gameId, shown)
  return (
    <Group gap="xs" wrap="nowrap" align="center">
      <Text size="sm">{t('admin.flags.salt')}</Text>
      {shown ? (
        <Code style={{ wordBreak: 'break-all' }}>{error ? error.title : (data ?? '…')}</Code>
      ) : (
        <Code>••••••••</Code>
      )}
      <ActionIcon
        variant="subtle"
        onClick={() => setShown((v) => !v)}
        aria-label={shown ? t('admin.flags.salt_hide') : t('admin.flags.salt_show')}
        aria-pressed={shown}
      >
        {shown ? <IconEyeOff size={16} aria-hidden /> : <IconEye size={16} aria-hidden />}
      </ActionIcon>
    </Group>
  )
}

/** The flag template of a dynamic container challenge, explained, with live examples. */
export function FlagTemplateSection({
  gameId,
  challenge,
  onChanged,
}: {
  gameId: number
  challenge: EditChallenge
  onChanged: () => void
}) {
  const { t } = useTranslation()
  const { update } = useChallengeActions(gameId)
  const [template, setTemplate] = useState(challenge.flagTemplate ?? '')
  const [seed, setSeed] = useState(0)
  const { busy, run } = useSubmit()
  const accepted = templateAccepted(template)
  const tooLong = template.trim().length > TEMPLATE_MAX
  // New random examples when the template changes or when asked for, not on every render.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `seed` is the "again" trigger
  const examples = useMemo(() => (tooLong ? [] : templateExamples(template, 3)), [template, tooLong, seed])

  const save = async (e: FormEvent) => {
    e.preventDefault()
    if (!accepted || tooLong) return
    await run(
      async () => {
        // An empty string clears the template (flags become flag{<random GUID>}).
        await update(challenge.id, { flagTemplate: template.trim() })
        onChanged()
      },
      { success: t('admin.flags.template_saved') },
    )
  }

  return (
    <Section title={t('admin.flags.template')}>
      <Text size="sm" c="dimmed">
        {t('admin.flags.template_intro')}
      </Text>
      <List size="sm" spacing={4}>
        <List.Item>
          <Code>[TEAM_HASH]</Code> {t('admin.flags.template_team_hash')}
        </List.Item>
        <List.Item>
          <Code>[GUID]</Code> {t('admin.flags.template_guid')}
        </List.Item>
        <List.Item>
          <Code>[LEET]</Code> / <Code>[CLEET]</Code> {t('admin.flags.template_leet')}
        </List.Item>
        <List.Item>{t('admin.flags.template_plain')}</List.Item>
        <List.Item>{t('admin.flags.template_empty')}</List.Item>
      </List>
      <form onSubmit={save} noValidate>
        <Stack gap="sm">
          <TextInput
            label={t('admin.flags.template_label')}
            placeholder="flag{[TEAM_HASH]}"
            value={template}
            onChange={(e) => setTemplate(e.currentTarget.value)}
            error={
              tooLong
                ? t('admin.flags.template_too_long', { max: TEMPLATE_MAX })
                : accepted
                  ? undefined
                  : t('admin.flags.template_weak')
            }
            styles={MONO_INPUT}
          />
          <Alert variant="light" color="blue" title={t('admin.flags.examples')}>
            <Stack gap={4}>
              {examples.map((example, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: examples are regenerated together
                <Code key={i} style={{ wordBreak: 'break-all' }} data-testid="flag-example">
                  {example}
                </Code>
              ))}
              <Text size="xs" c="dimmed">
                {t('admin.flags.examples_note', { hash: SAMPLE_TEAM_HASH })}
              </Text>
              <Button
                size="xs"
                variant="subtle"
                w="fit-content"
                leftSection={<IconRefresh size={14} aria-hidden />}
                onClick={() => setSeed((s) => s + 1)}
              >
                {t('admin.flags.examples_again')}
              </Button>
            </Stack>
          </Alert>
          <HashSalt gameId={gameId} />
          <Group justify="flex-end">
            <Button
              type="submit"
              loading={busy}
              disabled={!accepted || tooLong || template.trim() === (challenge.flagTemplate ?? '')}
              leftSection={<IconDeviceFloppy size={16} aria-hidden />}
            >
              {t('admin.flags.template_save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Section>
  )
}
