import { fail } from '../../http/errors.ts'

/** Formats accepted for pictures (seed §5): png, gif, jpeg, webp, and avif/heic (both read as `heif`). */
const ALLOWED = new Set(['png', 'gif', 'jpeg', 'webp', 'heif'])
export const MAX_IMAGE_BYTES = 3 * 1024 * 1024

/**
 * Checks the bytes really are a picture of an allowed format and re-encodes it: GIFs are kept as
 * they are (animation), everything else becomes WebP, scaled down to `width` when given.
 * `webp` makes GIFs WebP too (their first frame), for files served as `image/webp`.
 */
export async function prepareImage(
  bytes: Buffer,
  opts: { width?: number; webp?: boolean },
): Promise<{ bytes: Buffer; ext: string }> {
  if (bytes.length === 0) throw fail('File_SizeZero')
  if (bytes.length > MAX_IMAGE_BYTES) throw fail('File_SizeTooLarge')
  try {
    // Loaded with the first picture, not at start-up: libvips costs ~25 MiB of memory.
    const { default: sharp } = await import('sharp')
    const image = sharp(bytes, { limitInputPixels: 40_000_000, failOn: 'error' })
    const { format } = await image.metadata()
    if (!format || !ALLOWED.has(format)) throw new Error(`format ${format}`)
    if (format === 'gif' && !opts.webp) return { bytes, ext: 'gif' }
    const resized = opts.width ? image.resize({ width: opts.width, withoutEnlargement: true }) : image
    return { bytes: await resized.rotate().webp({ quality: 85 }).toBuffer(), ext: 'webp' }
  } catch {
    throw fail('Avatar_UpdateFailed')
  }
}
