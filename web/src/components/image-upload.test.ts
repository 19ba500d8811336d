import { describe, expect, it } from 'vitest'
import { imageProblem, MAX_IMAGE_BYTES } from './image-upload'

describe(imageProblem, () => {
  it.each(['image/png', 'image/gif', 'image/jpeg', 'image/webp', 'image/avif', 'image/heic'])(
    'accepts %s',
    (type) => {
      expect(imageProblem({ type, size: 1000 })).toBeNull()
    },
  )

  it.each(['image/svg+xml', 'image/bmp', 'application/pdf', ''])('refuses %s', (type) => {
    expect(imageProblem({ type, size: 1000 })).toBe('type')
  })

  it('refuses empty and over-large files', () => {
    expect(imageProblem({ type: 'image/png', size: 0 })).toBe('empty')
    expect(imageProblem({ type: 'image/png', size: MAX_IMAGE_BYTES + 1 })).toBe('size')
    expect(imageProblem({ type: 'image/png', size: MAX_IMAGE_BYTES })).toBeNull()
  })
})
