import { Button, Group, Modal, Text } from '@mantine/core'
import { t } from '@/i18n'
import type { ConfirmOptions } from './confirm'
import '@mantine/core/styles/Overlay.css'
import '@mantine/core/styles/ModalBase.css'
import '@mantine/core/styles/Modal.css'

export default function ConfirmDialog({
  title,
  message,
  confirmLabel,
  cancelLabel,
  danger,
  onDone,
}: ConfirmOptions & { onDone: (answer: boolean) => void }) {
  return (
    <Modal opened onClose={() => onDone(false)} title={title}>
      {typeof message === 'string' ? <Text>{message}</Text> : message}
      <Group justify="flex-end" mt="lg">
        <Button variant="default" onClick={() => onDone(false)}>
          {cancelLabel ?? t('common.button.cancel')}
        </Button>
        <Button color={danger ? 'red' : undefined} onClick={() => onDone(true)} data-autofocus>
          {confirmLabel ?? t('common.button.confirm')}
        </Button>
      </Group>
    </Modal>
  )
}
