import { Paper, Stack, Title } from '@mantine/core'
import { type ReactNode, useId } from 'react'

/** A titled group of fields (an h2 under the game's h1). */
export function Section({
  title,
  children,
  danger,
}: {
  title: string
  children: ReactNode
  danger?: boolean
}) {
  const id = useId()
  return (
    <Paper
      withBorder
      p={{ base: 'sm', sm: 'md' }}
      radius="md"
      component="section"
      aria-labelledby={id}
      style={danger ? { borderColor: 'var(--mantine-color-red-outline)' } : undefined}
    >
      <Title order={2} size="h4" id={id} mb="sm" c={danger ? 'red' : undefined}>
        {title}
      </Title>
      <Stack gap="md">{children}</Stack>
    </Paper>
  )
}
