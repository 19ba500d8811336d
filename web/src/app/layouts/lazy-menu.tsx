import { type ComponentType, type LazyExoticComponent, type ReactNode, Suspense, useState } from 'react'

/**
 * A menu of the frame whose code (Mantine's Menu and the dropdown-placement library, ~25 KiB)
 * loads when a pointer or the keyboard reaches its button, not with the page: phones paint the
 * page without first fetching a dropdown nobody has opened. The button is there from the first
 * render; a click before the code has arrived opens the menu once it has.
 */
export function LazyMenu({
  menu: Menu,
  button,
}: {
  menu: LazyExoticComponent<ComponentType<{ defaultOpened?: boolean }>>
  /** The same button the menu shows, without the menu; `wake` goes on its events. */
  button: (wake: { onPointerEnter: () => void; onFocus: () => void; onClick: () => void }) => ReactNode
}) {
  const [wanted, setWanted] = useState(false)
  const [clicked, setClicked] = useState(false)
  const alone = button({
    onPointerEnter: () => setWanted(true),
    onFocus: () => setWanted(true),
    onClick: () => {
      setWanted(true)
      setClicked(true)
    },
  })
  if (!wanted) return alone
  return (
    <Suspense fallback={alone}>
      <Menu defaultOpened={clicked} />
    </Suspense>
  )
}
