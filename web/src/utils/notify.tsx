import { notifications } from '@mantine/notifications'
import { IconCheck, IconX } from '@tabler/icons-react'
import type { ReactNode } from 'react'
import { t } from '@/i18n'
import { errorMessage, errorTitleKey } from './error-message'

/**
 * The one way screens tell users how an action went (style.md item 16): a red toast for any
 * failure with the seed's message chain, a green one for success, and `pending` for a long
 * action whose toast turns into the result.
 */
export const notify = {
  error(err: unknown, title?: string) {
    notifications.show({
      color: 'red',
      icon: <IconX size={18} aria-hidden />,
      title: title ?? t(errorTitleKey(err)),
      message: errorMessage(err, t('common.error.unknown')),
    })
  },

  success(message: ReactNode, title?: string) {
    notifications.show({ color: 'teal', icon: <IconCheck size={18} aria-hidden />, title, message })
  },

  info(message: ReactNode, title?: string) {
    notifications.show({ color: 'blue', title, message })
  },

  /** Runs `action` under a loading toast that becomes its success or failure; rethrows on failure. */
  async pending<T>(
    action: Promise<T>,
    text: { pending: ReactNode; success?: ReactNode /** Title of the failure toast. */; failure?: string },
  ): Promise<T> {
    const id = notifications.show({
      loading: true,
      message: text.pending,
      autoClose: false,
      withCloseButton: false,
    })
    try {
      const result = await action
      if (text.success)
        notifications.update({
          id,
          loading: false,
          color: 'teal',
          icon: <IconCheck size={18} aria-hidden />,
          message: text.success,
          autoClose: 4000,
          withCloseButton: true,
        })
      else notifications.hide(id)
      return result
    } catch (err) {
      notifications.update({
        id,
        loading: false,
        color: 'red',
        icon: <IconX size={18} aria-hidden />,
        title: text.failure ?? t(errorTitleKey(err)),
        message: errorMessage(err, t('common.error.unknown')),
        autoClose: 4000,
        withCloseButton: true,
      })
      throw err
    }
  },
}
