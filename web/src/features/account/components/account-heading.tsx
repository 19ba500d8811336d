import { Stack, Text, Title } from '@mantine/core'
import type { ReactNode } from 'react'

/** The page's one h1 and a line under it, centred in the account card. */
export function AccountHeading({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <Stack gap={4} mb="lg" ta="center">
      <Title order={1} size="h2">
        {title}
      </Title>
      {children && (
        <Text c="dimmed" size="sm">
          {children}
        </Text>
      )}
    </Stack>
  )
}
