import { Button, Group, Modal, Text } from '@mantine/core'
import { useTranslation } from '@/i18n'
import '@mantine/core/styles/Overlay.css'
import '@mantine/core/styles/ModalBase.css'
import '@mantine/core/styles/Modal.css'

/** Warns that a machine-translated language may be inaccurate; offers English instead. */
export default function MtConfirmDialog({
  name,
  onConfirm,
  onEnglish,
  onClose,
}: {
  name: string
  onConfirm: () => void
  onEnglish: () => void
  onClose: () => void
}) {
  const { t } = useTranslation()
  return (
    <Modal opened onClose={onClose} title={t('common.language.mt_title')}>
      <Text>{t('common.language.mt_body', { language: name })}</Text>
      <Group justify="flex-end" mt="lg">
        <Button variant="default" onClick={onEnglish}>
          {t('common.language.mt_english')}
        </Button>
        <Button onClick={onConfirm} data-autofocus>
          {t('common.language.mt_confirm', { language: name })}
        </Button>
      </Group>
    </Modal>
  )
}
