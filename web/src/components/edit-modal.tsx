import { Modal, type ModalProps } from '@mantine/core'
import { useMediaQuery } from '@mantine/hooks'
import { useTranslation } from '@/i18n'
import '@mantine/core/styles/Overlay.css'
import '@mantine/core/styles/ModalBase.css'
import '@mantine/core/styles/Modal.css'

/** A modal that fills the screen on phones. */
export function EditModal(props: ModalProps) {
  const { t } = useTranslation()
  const phone = useMediaQuery('(max-width: 48em)')
  return (
    <Modal
      centered
      fullScreen={phone}
      size="lg"
      closeButtonProps={{ 'aria-label': t('common.button.close') }}
      {...props}
    />
  )
}
