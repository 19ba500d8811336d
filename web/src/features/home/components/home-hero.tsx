import { Image, Text, Title } from '@mantine/core'
import { useConfig } from '@/features/info/api'
import classes from './home.module.css'

/** The platform's logo, title and slogan (with a blinking cursor, still under reduced motion). */
export function HomeHero() {
  const { config } = useConfig()
  const title = config?.title || 'Pennant'
  const slogan = config?.slogan || 'Hack for fun not for profit'
  return (
    <header className={classes.hero}>
      <Image
        src={config?.logoUrl || '/favicon.svg'}
        alt=""
        w={56}
        h={56}
        radius="md"
        className={classes.logo}
      />
      <div className={classes.heroText}>
        <Title order={1} className={classes.heroTitle}>
          {title}
        </Title>
        <Text c="dimmed" className={classes.slogan}>
          {slogan}
          <span className={classes.cursor} aria-hidden />
        </Text>
      </div>
    </header>
  )
}
