import { type ComponentType, type LazyExoticComponent, type ReactNode, Suspense, useState } from 'react'

/**
 * A menu of the frame whose button shows with the first render while the menu's code (Mantine's
 * Menu and the dropdown-placement library, ~25 KiB) loads after it: phones paint the page
 * without waiting for a dropdown nobody has opened yet. A click before the code arrives opens
 * the menu once it has.
 */
export function LazyMenu({
  menu: Menu,
  button,
}: {
  menu: LazyExoticComponent<ComponentType<{ defaultOpened?: boolean }>>
  /** The same button the menu shows, without the menu. */
  button: (onClick: () => void) => ReactNode
}) {
  const [clicked, setClicked] = useState(false)
  return (
    <Suspense fallback={button(() => setClicked(true))}>
      <Menu defaultOpened={clicked} />
    </Suspense>
  )
}
