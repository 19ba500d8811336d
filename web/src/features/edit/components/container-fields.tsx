import { NumberInput, SimpleGrid, Switch, TextInput } from '@mantine/core'
import { useTranslation } from '@/i18n'
import type { EditChallenge } from '../api'
import type { ChallengeForm, ChallengeFormErrors } from '../challenge-form'
import { TestContainer } from './test-container'
import '@mantine/core/styles/NumberInput.css'
import '@mantine/core/styles/SimpleGrid.css'
import '@mantine/core/styles/Switch.css'

/** Image, port and resource limits of a container challenge, and its test container. */
export function ContainerFields({
  gameId,
  challenge,
  unsaved,
  form,
  errors,
  set,
}: {
  gameId: number
  challenge: EditChallenge
  unsaved: boolean
  form: ChallengeForm
  errors: ChallengeFormErrors
  set: <K extends keyof ChallengeForm>(key: K, value: ChallengeForm[K]) => void
}) {
  const { t } = useTranslation()
  const err = (k: keyof ChallengeForm) => (errors[k] ? t(errors[k]!) : undefined)
  return (
    <>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput
          label={t('admin.challenge.field.image')}
          description={t('admin.challenge.field.image_hint')}
          placeholder="ghcr.io/org/challenge:latest"
          value={form.containerImage}
          onChange={(e) => set('containerImage', e.currentTarget.value)}
          error={err('containerImage')}
        />
        <NumberInput
          label={t('admin.challenge.field.port')}
          min={1}
          max={65535}
          allowDecimal={false}
          value={form.containerExposePort}
          onChange={(v) => set('containerExposePort', v)}
          error={err('containerExposePort')}
        />
        <NumberInput
          label={t('admin.challenge.field.cpu')}
          description={t('admin.challenge.field.cpu_hint')}
          min={1}
          max={1024}
          allowDecimal={false}
          value={form.cpuCount}
          onChange={(v) => set('cpuCount', v)}
          error={err('cpuCount')}
        />
        <NumberInput
          label={t('admin.challenge.field.memory')}
          min={32}
          max={1048576}
          allowDecimal={false}
          suffix=" MB"
          value={form.memoryLimit}
          onChange={(v) => set('memoryLimit', v)}
          error={err('memoryLimit')}
        />
        <NumberInput
          label={t('admin.challenge.field.storage')}
          min={128}
          max={1048576}
          allowDecimal={false}
          suffix=" MB"
          value={form.storageLimit}
          onChange={(v) => set('storageLimit', v)}
          error={err('storageLimit')}
        />
      </SimpleGrid>
      <Switch
        label={t('admin.challenge.field.traffic_capture')}
        description={t('admin.challenge.field.traffic_capture_hint')}
        checked={form.enableTrafficCapture}
        onChange={(e) => set('enableTrafficCapture', e.currentTarget.checked)}
      />
      <TestContainer gameId={gameId} challenge={challenge} unsaved={unsaved} />
    </>
  )
}
