import { Notifications } from '@mantine/notifications'
import '@mantine/notifications/styles.css'
import '@mantine/core/styles/Notification.css'

/** Toast constants of the seed (section 9). */
export default function Toasts() {
  return (
    <Notifications
      position="bottom-right"
      limit={5}
      autoClose={4000}
      transitionDuration={250}
      zIndex={5000}
      containerWidth={440}
      notificationMaxHeight={200}
    />
  )
}
