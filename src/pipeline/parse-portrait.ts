import sharp from 'sharp'
import { AppError } from '../errors/app-error.ts'

export const MAX_IMAGE_BYTES = 4 * 1024 * 1024
/** Bounds the decoded size, so a small file cannot expand into gigabytes (decompression bomb). */
export const MAX_IMAGE_PIXELS = 40_000_000
export const MIN_IMAGE_SIDE = 64

export type PortraitMime = 'image/jpeg' | 'image/png' | 'image/webp'
export type Portrait = { bytes: Uint8Array; mimeType: PortraitMime; width: number; height: number }

const invalid = (message: string, cause?: unknown) => new AppError('INVALID_IMAGE', message, { cause, details: { field: 'image' } })

/** The type the bytes say they are, by their magic numbers. */
export function sniffImageType(bytes: Uint8Array): PortraitMime | undefined {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg'
  if (bytes.length >= 8 && Buffer.from(bytes.subarray(0, 8)).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) {
    return 'image/png'
  }
  if (
    bytes.length >= 12 &&
    Buffer.from(bytes.subarray(0, 4)).toString('latin1') === 'RIFF' &&
    Buffer.from(bytes.subarray(8, 12)).toString('latin1') === 'WEBP'
  ) {
    return 'image/webp'
  }
  return undefined
}

/** Strict base64 (standard or URL-safe, optional padding), optionally as a data URI. */
function decodeBase64(text: string): Uint8Array {
  const body = text.replace(/^data:image\/[a-z]+;base64,/i, '').replace(/\s+/g, '')
  if (body.length === 0) throw invalid('The image is empty.')
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(body)) throw invalid('The image is not valid base64.')
  if (Math.floor((body.length * 3) / 4) > MAX_IMAGE_BYTES + 3) {
    throw invalid(`The image is larger than ${MAX_IMAGE_BYTES / 1024 / 1024} MB.`)
  }
  return new Uint8Array(Buffer.from(body, body.includes('-') || body.includes('_') ? 'base64url' : 'base64'))
}

/**
 * Turns the submitted base64 portrait into checked bytes: JPEG, PNG or WebP by magic bytes,
 * at most 4 MB, consistent with imageType, within the pixel bound, and fully decodable
 * (checked now, before anything is paid, so generation cannot fail on it later).
 */
export async function parsePortrait(base64: string, imageType?: string): Promise<Portrait> {
  const bytes = decodeBase64(base64)
  if (bytes.length > MAX_IMAGE_BYTES) throw invalid(`The image is ${bytes.length} bytes; the limit is ${MAX_IMAGE_BYTES} bytes (4 MB).`)
  const sniffed = sniffImageType(bytes)
  if (!sniffed) throw invalid('The image is not a JPEG, PNG or WebP file.')
  const declared = imageType ?? 'image/png'
  if (imageType !== undefined && declared !== sniffed) {
    throw invalid(`imageType says ${declared} but the bytes are ${sniffed}.`)
  }
  let width: number
  let height: number
  try {
    // The header alone gives the size; nothing is decoded until the size is known to be sane.
    const meta = await sharp(bytes, { limitInputPixels: false }).metadata()
    width = meta.width ?? 0
    height = meta.height ?? 0
    if (width * height > MAX_IMAGE_PIXELS) throw invalid(`The image has ${width}×${height} pixels; at most ${MAX_IMAGE_PIXELS} are accepted.`)
    // Decoding the whole image proves it is not truncated or corrupt.
    await sharp(bytes, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'error' }).resize(32, 32, { fit: 'inside' }).raw().toBuffer()
  } catch (cause) {
    if (cause instanceof AppError) throw cause
    throw invalid('The image could not be decoded (corrupt, truncated or too large).', cause)
  }
  if (width < MIN_IMAGE_SIDE || height < MIN_IMAGE_SIDE) {
    throw invalid(`The image is ${width}×${height} pixels; each side must be at least ${MIN_IMAGE_SIDE}.`)
  }
  return { bytes, mimeType: sniffed, width, height }
}
