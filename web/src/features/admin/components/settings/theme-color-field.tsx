import { Box, Button, ColorSwatch, Group, Input, Stack, TextInput } from '@mantine/core'
import { IconRestore } from '@tabler/icons-react'
import { useTranslation } from '@/i18n'
import { BRAND, isHexColor, paletteOf } from '@/theme/colors'
import '@mantine/core/styles/ColorSwatch.css'

/**
 * The platform's primary colour: a hex field with the browser's colour picker beside it, a
 * way back to the default, and the ten shades the interface will build from it (the same
 * palette code the theme uses, so the preview is what players get).
 */
export function ThemeColorField({
  value,
  onChange,
  error,
}: {
  value: string
  onChange: (value: string) => void
  error?: string
}) {
  const { t } = useTranslation()
  const color = value.trim()
  const valid = isHexColor(color)
  const shades = valid ? paletteOf(color) : [...BRAND]

  return (
    <Stack gap={6}>
      <TextInput
        label={t('admin.settings.field.theme')}
        description={t('admin.settings.field.theme_hint')}
        placeholder="#rrggbb"
        value={value}
        onChange={(e) => onChange(e.currentTarget.value.trim())}
        error={error}
        maxLength={7}
        spellCheck={false}
        autoComplete="off"
        leftSection={<ColorSwatch color={valid ? color : 'transparent'} size={18} aria-hidden />}
        rightSectionWidth={44}
        rightSection={
          // The browser's own picker: keyboard-usable, and no colour-picker code in the bundle.
          <input
            type="color"
            aria-label={t('admin.settings.field.theme_pick')}
            title={t('admin.settings.field.theme_pick')}
            value={valid ? color.toLowerCase() : BRAND[7]}
            onChange={(e) => onChange(e.currentTarget.value)}
            style={{ width: 30, height: 26, padding: 0, border: 0, background: 'none', cursor: 'pointer' }}
          />
        }
        styles={{ wrapper: { maxWidth: 240 } }}
      />
      <Group gap="sm" wrap="wrap" align="center">
        <Box aria-hidden style={{ display: 'flex', borderRadius: 6, overflow: 'hidden' }}>
          {shades.map((shade) => (
            <span key={shade} style={{ width: 24, height: 20, background: shade }} />
          ))}
        </Box>
        <Input.Description component="span">
          {valid
            ? t('admin.settings.field.theme_custom', { color: color.toLowerCase() })
            : t('admin.settings.field.theme_default')}
        </Input.Description>
        {color && (
          <Button
            variant="subtle"
            size="compact-sm"
            leftSection={<IconRestore size={14} aria-hidden />}
            onClick={() => onChange('')}
          >
            {t('admin.settings.field.theme_reset')}
          </Button>
        )}
      </Group>
    </Stack>
  )
}
