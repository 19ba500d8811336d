import { Skeleton, Stack } from '@mantine/core'
import { lazy, Suspense } from 'react'
import '@mantine/core/styles/Skeleton.css'

// The parser and sanitiser load with the first Markdown on screen, not with the app.
const MarkdownView = lazy(() => import('./markdown-view'))

/** Sanitised Markdown (block, or `inline` for hints and one-line notices). */
export function Markdown({ source, inline }: { source: string; inline?: boolean }) {
  return (
    <Suspense
      fallback={
        inline ? (
          <Skeleton height={12} width="60%" display="inline-block" />
        ) : (
          <Stack gap={8} aria-hidden>
            <Skeleton height={12} />
            <Skeleton height={12} />
            <Skeleton height={12} width="70%" />
          </Stack>
        )
      }
    >
      <MarkdownView source={source} inline={inline} />
    </Suspense>
  )
}
