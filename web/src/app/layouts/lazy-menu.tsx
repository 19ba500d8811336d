import {
  type ComponentType,
  type LazyExoticComponent,
  type ReactNode,
  Suspense,
  startTransition,
  useState,
} from 'react'

/**
 * A menu of the frame whose code (Mantine's Menu and the dropdown-placement library, ~25 KiB)
 * is fetched when a pointer or the keyboard reaches its button, not with the page: phones paint
 * the page without first fetching a dropdown nobody has opened. Until the first click the button
 * is shown alone; the click swaps in the menu, open, once its code is here (as a transition, so
 * the same button stays meanwhile and no click lands on an element being replaced).
 */
export function LazyMenu({
  menu: Menu,
  load,
  button,
}: {
  menu: LazyExoticComponent<ComponentType<{ defaultOpened?: boolean }>>
  /** The menu's import, started early on intent (the module is fetched once). */
  load: () => Promise<unknown>
  /** The same button the menu shows, without the menu; `wake` goes on its events. */
  button: (wake: { onPointerEnter: () => void; onFocus: () => void; onClick: () => void }) => ReactNode
}) {
  const [opened, setOpened] = useState(false)
  const alone = button({
    onPointerEnter: () => void load(),
    onFocus: () => void load(),
    onClick: () => startTransition(() => setOpened(true)),
  })
  return <Suspense fallback={alone}>{opened ? <Menu defaultOpened /> : alone}</Suspense>
}
