import { Box, Group, Input, SegmentedControl, Textarea } from '@mantine/core'
import { useId, useState } from 'react'
import { Markdown } from '@/components/markdown'
import { useTranslation } from '@/i18n'
import '@mantine/core/styles/SegmentedControl.css'
import '@mantine/core/styles/FloatingIndicator.css'

/** A Markdown textarea with a preview switch (the preview is the sanitised renderer players see). */
export function MarkdownField({
  label,
  description,
  value,
  onChange,
  minRows = 6,
  error,
}: {
  label: string
  description?: string
  value: string
  onChange: (value: string) => void
  minRows?: number
  error?: string
}) {
  const { t } = useTranslation()
  const [mode, setMode] = useState<'write' | 'preview'>('write')
  const previewId = useId()

  return (
    <Box>
      <Group justify="space-between" align="flex-end" mb={4} gap="xs">
        <Input.Label component="div">{label}</Input.Label>
        <SegmentedControl
          size="xs"
          value={mode}
          onChange={(v) => setMode(v as 'write' | 'preview')}
          data={[
            { value: 'write', label: t('admin.markdown.write') },
            { value: 'preview', label: t('admin.markdown.preview') },
          ]}
          aria-label={t('admin.markdown.mode', { field: label })}
          // Small to sit beside the label, yet at least 24 px high (WCAG 2.2 target size, 2.5.8).
          styles={{
            label: { minHeight: 24, display: 'flex', alignItems: 'center', justifyContent: 'center' },
          }}
        />
      </Group>
      {mode === 'write' ? (
        <Textarea
          aria-label={label}
          description={description ?? t('admin.markdown.hint')}
          value={value}
          onChange={(e) => onChange(e.currentTarget.value)}
          autosize
          minRows={minRows}
          maxRows={24}
          error={error}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 13 } }}
        />
      ) : (
        <Box
          id={previewId}
          p="sm"
          mih={minRows * 22}
          style={{
            border: '1px solid var(--mantine-color-default-border)',
            borderRadius: 'var(--mantine-radius-sm)',
          }}
          aria-label={t('admin.markdown.preview_of', { field: label })}
          role="region"
        >
          {value.trim() ? (
            <Markdown source={value} />
          ) : (
            <Input.Description>{t('admin.markdown.empty')}</Input.Description>
          )}
        </Box>
      )}
    </Box>
  )
}
