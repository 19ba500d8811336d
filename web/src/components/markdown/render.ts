import DOMPurify from 'dompurify'
import { Marked } from 'marked'

const marked = new Marked({ gfm: true, breaks: false, async: false })

// Links that leave the site open in a new tab without handing it our window.
DOMPurify.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName === 'A' && node.getAttribute('href')?.match(/^https?:\/\//)) {
    node.setAttribute('target', '_blank')
    node.setAttribute('rel', 'noopener noreferrer nofollow')
  }
})

/**
 * Markdown to safe HTML (decisions.md item 13): whatever organisers or players write, scripts,
 * event handlers, `javascript:` URLs, frames and forms never reach the page.
 */
export function renderMarkdown(source: string, inline = false): string {
  const html = inline ? marked.parseInline(source) : marked.parse(source)
  return DOMPurify.sanitize(html as string, {
    USE_PROFILES: { html: true },
    FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'iframe', 'object', 'embed'],
    FORBID_ATTR: ['style'],
  })
}
