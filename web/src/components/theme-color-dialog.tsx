import { Button, ColorSwatch, Group, Modal, SegmentedControl, Stack, Text, TextInput } from '@mantine/core'
import { useState } from 'react'
import { useTranslation } from '@/i18n'
import { isHexColor, providerOf, type ThemeProvider } from '@/theme/colors'
import { useStoredThemeColor } from '@/theme/use-theme-color'
import '@mantine/core/styles/Overlay.css'
import '@mantine/core/styles/ModalBase.css'
import '@mantine/core/styles/Modal.css'
import '@mantine/core/styles/SegmentedControl.css'
import '@mantine/core/styles/FloatingIndicator.css'
import '@mantine/core/styles/ColorSwatch.css'

/** Chooses where the primary colour comes from: the platform, the default brand, or a custom hex. */
export default function ThemeColorDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation()
  const [stored, setStored] = useStoredThemeColor()
  const [draft, setDraft] = useState(isHexColor(stored) ? stored : '#')
  const provider = providerOf(stored)
  const invalid = draft !== '#' && !isHexColor(draft)

  const pick = (value: string) => {
    const next = value as ThemeProvider
    if (next === 'Managed') setStored('')
    else if (next === 'Default') setStored('brand')
    else if (isHexColor(draft)) setStored(draft)
  }

  return (
    <Modal opened onClose={onClose} title={t('common.theme.color')} size="sm">
      <Stack gap="sm">
        <Text fw={600} size="sm" id="theme-provider-label">
          {t('common.theme.provider')}
        </Text>
        <SegmentedControl
          aria-labelledby="theme-provider-label"
          fullWidth
          value={provider}
          onChange={pick}
          data={[
            { value: 'Managed', label: t('common.theme.managed') },
            { value: 'Default', label: t('common.theme.default') },
            { value: 'Custom', label: t('common.theme.custom') },
          ]}
        />
        <Group gap="xs" align="flex-start" wrap="nowrap">
          <TextInput
            label={t('common.theme.custom_label')}
            value={draft}
            onChange={(e) => setDraft(e.currentTarget.value.trim())}
            error={invalid ? t('common.theme.invalid') : undefined}
            maxLength={7}
            spellCheck={false}
            style={{ flex: 1 }}
          />
          <ColorSwatch color={isHexColor(draft) ? draft : 'transparent'} mt={30} aria-hidden />
        </Group>
        <Button disabled={!isHexColor(draft)} onClick={() => setStored(draft)}>
          {t('common.button.save')}
        </Button>
      </Stack>
    </Modal>
  )
}
