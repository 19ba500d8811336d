import { useState } from 'react'
import classes from './account.module.css'

/**
 * A round avatar with the name's initials when there is no picture (or it fails to load). Our
 * own few lines: the account pages load without Mantine's Avatar (see the 150 KB budget).
 */
export function UserAvatar({
  src,
  name,
  label,
  size = 96,
}: {
  src: string | null
  name: string
  label: string
  size?: number
}) {
  const [failed, setFailed] = useState<string | null>(null)
  const showImage = src && failed !== src
  return (
    <span className={classes.avatar} style={{ width: size, height: size, fontSize: size * 0.36 }}>
      {showImage ? (
        <img src={src} alt={label} width={size} height={size} onError={() => setFailed(src)} />
      ) : (
        <span role="img" aria-label={label}>
          {name.slice(0, 2).toUpperCase()}
        </span>
      )}
    </span>
  )
}
