import { ActionIcon, Button, Group, Input, Stack, TextInput } from '@mantine/core'
import { IconPlus, IconTrash } from '@tabler/icons-react'
import { useTranslation } from '@/i18n'

/** An editable list of hints (each a line of inline Markdown). */
export function HintsField({ value, onChange }: { value: string[]; onChange: (value: string[]) => void }) {
  const { t } = useTranslation()
  const set = (i: number, text: string) => onChange(value.map((h, j) => (j === i ? text : h)))
  return (
    <Input.Wrapper
      label={t('admin.challenge.field.hints')}
      description={t('admin.challenge.field.hints_hint')}
    >
      <Stack gap="xs" mt={6}>
        {value.map((hint, i) => (
          // Hints have no ids; the position is their identity while editing.
          // biome-ignore lint/suspicious/noArrayIndexKey: see above
          <Group key={i} gap="xs" wrap="nowrap">
            <TextInput
              style={{ flex: 1 }}
              value={hint}
              onChange={(e) => set(i, e.currentTarget.value)}
              aria-label={t('admin.challenge.field.hint_n', { n: i + 1 })}
            />
            <ActionIcon
              variant="subtle"
              color="red"
              onClick={() => onChange(value.filter((_, j) => j !== i))}
              aria-label={t('admin.challenge.field.remove_hint', { n: i + 1 })}
            >
              <IconTrash size={16} aria-hidden />
            </ActionIcon>
          </Group>
        ))}
        <Button
          variant="light"
          size="xs"
          w="fit-content"
          leftSection={<IconPlus size={14} aria-hidden />}
          onClick={() => onChange([...value, ''])}
        >
          {t('admin.challenge.field.add_hint')}
        </Button>
      </Stack>
    </Input.Wrapper>
  )
}
