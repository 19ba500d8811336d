import { Button, Group, Image, Input, Stack } from '@mantine/core'
import { IconTrash } from '@tabler/icons-react'
import { useId, useState } from 'react'
import { confirm } from '@/components/confirm'
import { ImageUpload, MAX_IMAGE_BYTES } from '@/components/image-upload'
import { useConfig } from '@/features/info/api'
import { useTranslation } from '@/i18n'
import { notify } from '@/utils/notify'
import { LOGO_URL, useSettingsActions } from '../../settings-api'

/**
 * The platform logo (also the favicon): the current one as players see it (from the client
 * config), upload a new one, or go back to Pennant's. Takes effect at once, not with "Save".
 */
export function LogoField() {
  const { t } = useTranslation()
  const labelId = useId()
  const { config } = useConfig()
  const { logoChanged, removeLogo } = useSettingsActions()
  const [removing, setRemoving] = useState(false)
  const logo = config?.logoUrl

  const remove = async () => {
    const ok = await confirm({
      title: t('admin.settings.logo.remove'),
      message: t('admin.settings.logo.remove_confirm'),
      confirmLabel: t('admin.settings.logo.remove'),
      danger: true,
    })
    if (!ok) return
    setRemoving(true)
    try {
      await removeLogo()
      notify.success(t('admin.settings.logo.removed'))
    } catch (err) {
      notify.error(err)
    } finally {
      setRemoving(false)
    }
  }

  return (
    <Stack gap={6} role="group" aria-labelledby={labelId}>
      <div>
        <Input.Label component="div" id={labelId}>
          {t('admin.settings.logo.label')}
        </Input.Label>
        <Input.Description>
          {t('admin.settings.logo.hint', { max: `${MAX_IMAGE_BYTES / 2 ** 20} MiB` })}
        </Input.Description>
      </div>
      <Group gap="md" align="center">
        <Image
          src={logo || '/favicon.svg'}
          alt={logo ? t('admin.settings.logo.current') : t('admin.settings.logo.default')}
          w={72}
          h={72}
          fit="contain"
          radius="sm"
          p={4}
          style={{ border: '1px solid var(--mantine-color-default-border)' }}
        />
        <Group gap="xs" align="flex-start">
          <ImageUpload
            url={LOGO_URL}
            method="POST"
            label={logo ? t('admin.settings.logo.replace') : t('admin.settings.logo.upload')}
            onUploaded={() => void logoChanged()}
          />
          {logo && (
            <Button
              variant="subtle"
              color="red"
              loading={removing}
              leftSection={<IconTrash size={16} aria-hidden />}
              onClick={remove}
            >
              {t('admin.settings.logo.remove')}
            </Button>
          )}
        </Group>
      </Group>
    </Stack>
  )
}
