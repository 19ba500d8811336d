import type { Icon } from '@tabler/icons-react'
import { useEffect, useRef } from 'react'
import { NavLink, useLocation } from 'react-router'
import classes from './admin-tabs.module.css'

export interface TabLink {
  to: string
  label: string
  icon: Icon
  /** Active only on exactly this path (by default also below it). */
  end?: boolean
}

/**
 * Navigation that looks like tabs: real links (each page has its own address), the current one
 * marked with `aria-current`, scrolling sideways on phones instead of wrapping.
 */
export function AdminTabs({ tabs, label }: { tabs: TabLink[]; label: string }) {
  const strip = useRef<HTMLDivElement>(null)
  const { pathname } = useLocation()

  // On a narrow screen the current tab may sit past the edge: bring it into the middle.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the path change is the trigger
  useEffect(() => {
    const box = strip.current
    const current = box?.querySelector<HTMLElement>('[aria-current="page"]')
    if (!box || !current || box.scrollWidth <= box.clientWidth) return
    box.scrollLeft = current.offsetLeft - (box.clientWidth - current.offsetWidth) / 2
  }, [pathname])

  return (
    <nav aria-label={label}>
      <div className={classes.strip} ref={strip}>
        {tabs.map(({ to, label: text, icon: TabIcon, end }) => (
          <NavLink key={to} to={to} end={end} className={classes.tab}>
            <TabIcon size={16} stroke={1.8} aria-hidden />
            {text}
          </NavLink>
        ))}
      </div>
    </nav>
  )
}
