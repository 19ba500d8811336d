import { Typography } from '@mantine/core'
import { useMemo } from 'react'
import { renderMarkdown } from './render'
import '@mantine/core/styles/Typography.css'

export default function MarkdownView({ source, inline }: { source: string; inline?: boolean }) {
  const html = useMemo(() => renderMarkdown(source, inline), [source, inline])
  // biome-ignore lint/security/noDangerouslySetInnerHtml: renderMarkdown sanitises with DOMPurify
  if (inline) return <span dangerouslySetInnerHTML={{ __html: html }} />
  // biome-ignore lint/security/noDangerouslySetInnerHtml: renderMarkdown sanitises with DOMPurify
  return <Typography dangerouslySetInnerHTML={{ __html: html }} />
}
