import { Group, Text } from '@mantine/core'
import { Link } from 'react-router'
import { useConfig } from '@/features/info/api'
import { paths } from '@/features/paths'

/**
 * The platform logo (the admin's, or Pennant's) linking home, with the title when asked;
 * `titleFrom` hides the title below a breakpoint (narrow phones keep just the logo).
 */
export function Brand({
  withTitle,
  titleFrom,
  size = 36,
}: {
  withTitle?: boolean
  titleFrom?: 'xs' | 'sm'
  size?: number
}) {
  const { config } = useConfig()
  const title = config?.title || 'Pennant'
  return (
    <Group
      renderRoot={(props) => <Link to={paths.home} {...props} />}
      gap="xs"
      wrap="nowrap"
      style={{ textDecoration: 'none', color: 'inherit' }}
      aria-label={title}
    >
      <img
        src={config?.logoUrl || '/favicon.svg'}
        alt=""
        width={size}
        height={size}
        style={{ borderRadius: 8 }}
      />
      {withTitle && (
        <Text fw={700} size="lg" truncate visibleFrom={titleFrom} aria-hidden>
          {title}
        </Text>
      )}
    </Group>
  )
}
