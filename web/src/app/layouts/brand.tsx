import { Group, Image, Text } from '@mantine/core'
import { Link } from 'react-router'
import { paths } from '@/app/paths'
import { useConfig } from '@/features/info/api'

/** The platform logo (the admin's, or Pennant's) linking home, with the title when asked. */
export function Brand({ withTitle, size = 36 }: { withTitle?: boolean; size?: number }) {
  const { config } = useConfig()
  const title = config?.title || 'Pennant'
  return (
    <Group
      renderRoot={(props) => <Link to={paths.home} {...props} />}
      gap="xs"
      wrap="nowrap"
      style={{ textDecoration: 'none', color: 'inherit' }}
      aria-label={withTitle ? undefined : title}
    >
      <Image src={config?.logoUrl || '/favicon.svg'} alt="" w={size} h={size} radius="md" />
      {withTitle && (
        <Text fw={700} size="lg" truncate>
          {title}
        </Text>
      )}
    </Group>
  )
}
