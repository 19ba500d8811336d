import { Button, Group, Radio, Select, Stack, Text, TextInput } from '@mantine/core'
import { type FormEvent, useState } from 'react'
import { useNavigate } from 'react-router'
import { ChallengeCategoryValues, ChallengeTypeValues } from '@/api/schema.gen'
import type { ChallengeCategory, ChallengeType } from '@/api/types'
import { EditModal } from '@/components/edit-modal'
import { MONO_INPUT } from '@/components/mono-input'
import { paths } from '@/features/paths'
import { useTranslation } from '@/i18n'
import { notify } from '@/utils/notify'
import { useChallengeActions } from '../api'
import { FLAG_MAX, flagMode } from '../flag-rules'
import '@mantine/core/styles/Radio.css'
import '@mantine/core/styles/Combobox.css'

/**
 * Title, category and type (which cannot change later, so each is explained), and for the types
 * whose flags are typed in, a first flag; then the editor, where the challenge is one switch away
 * from playable.
 */
export function NewChallengeModal({
  gameId,
  opened,
  onClose,
}: {
  gameId: number
  opened: boolean
  onClose: () => void
}) {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const { create, addFlags } = useChallengeActions(gameId)
  const [title, setTitle] = useState('')
  const [category, setCategory] = useState<ChallengeCategory>('Misc')
  const [type, setType] = useState<ChallengeType>('StaticAttachment')
  const [flag, setFlag] = useState('')
  const [busy, setBusy] = useState(false)
  // Dynamic attachments pair each flag with a file, dynamic containers make theirs from a template.
  const typedFlags = flagMode(type) === 'static'

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    if (!title.trim() || busy) return
    setBusy(true)
    try {
      const challenge = await create({ title: title.trim(), category, type })
      notify.success(t('admin.challenges.created', { title: challenge.title }))
      if (typedFlags && flag.trim()) {
        // The challenge exists either way: a refused flag is said, and the editor opens to retry.
        await addFlags(challenge.id, [{ flag: flag.trim() }]).catch((err: unknown) => notify.error(err))
      }
      onClose()
      navigate(paths.admin.challenge(gameId, challenge.id))
    } catch (err) {
      notify.error(err)
    } finally {
      setBusy(false)
    }
  }

  return (
    <EditModal opened={opened} onClose={onClose} title={t('admin.challenges.new')}>
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput
            label={t('admin.challenge.field.title')}
            required
            maxLength={128}
            value={title}
            onChange={(e) => setTitle(e.currentTarget.value)}
            data-autofocus
          />
          <Select
            label={t('admin.challenge.field.category')}
            data={ChallengeCategoryValues.map((c) => ({ value: c, label: t(`admin.category.${c}`) }))}
            value={category}
            onChange={(v) => v && setCategory(v as ChallengeCategory)}
            allowDeselect={false}
            comboboxProps={{ withinPortal: true }}
          />
          <Radio.Group
            label={t('admin.challenge.field.type')}
            description={t('admin.challenges.type_fixed')}
            value={type}
            onChange={(v) => setType(v as ChallengeType)}
          >
            <Stack gap="sm" mt="xs">
              {ChallengeTypeValues.map((value) => (
                <Radio
                  key={value}
                  value={value}
                  label={t(`admin.challenge_type.${value}`)}
                  description={t(`admin.challenge_type_hint.${value}`)}
                />
              ))}
            </Stack>
          </Radio.Group>
          {typedFlags && (
            <TextInput
              label={t('admin.challenges.first_flag')}
              description={t('admin.challenges.first_flag_hint')}
              maxLength={FLAG_MAX}
              value={flag}
              onChange={(e) => setFlag(e.currentTarget.value)}
              styles={MONO_INPUT}
              autoComplete="off"
              spellCheck={false}
            />
          )}
          <Text size="xs" c="dimmed">
            {t('admin.challenges.new_hint')}
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.button.cancel')}
            </Button>
            <Button type="submit" loading={busy} disabled={!title.trim()}>
              {t('admin.challenges.create')}
            </Button>
          </Group>
        </Stack>
      </form>
    </EditModal>
  )
}
