import type { ReactNode } from 'react'
import classes from './home.module.css'
import { HomeFooter } from './home-footer'
import { HomeHero } from './home-hero'
import { RecentGames } from './recent-games'

/** The home page: hero, the main column (`children`, the posts) with the recent games, footer. */
export function HomeLayout({ children }: { children: ReactNode }) {
  return (
    <div className={classes.page}>
      <HomeHero />
      <div className={classes.layout}>
        <div className={classes.main}>{children}</div>
        <RecentGames />
      </div>
      <HomeFooter />
    </div>
  )
}
