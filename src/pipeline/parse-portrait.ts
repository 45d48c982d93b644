import sharp from 'sharp'
import { AppError } from '../errors/app-error.ts'
import { MAX_IMAGE_PIXELS, PORTRAIT_DECODE } from '../adapters/image/decode-options.ts'

export const MAX_IMAGE_BYTES = 4 * 1024 * 1024
export { MAX_IMAGE_PIXELS }
/**
 * Bounds the decoded size (width × height × channels × bytes per sample; a progressive JPEG
 * keeps two bytes per coefficient), which bounds both the memory of a decode that cannot
 * stream (interlaced PNG, progressive JPEG, WebP hold the whole image) and the CPU of any
 * decode: a 40-megapixel 16-bit RGBA PNG would be 320 MB.
 */
export const MAX_DECODE_BYTES = 128 * 1024 * 1024
export const MIN_IMAGE_SIDE = 64
/** A full decode that takes longer than this is refused (sharp's own timeout). */
const DECODE_TIMEOUT_SECONDS = 5
/** Full decodes at once in this process (sharp's threads are process-wide) and how many may wait. */
const DECODE_CONCURRENCY = 1
const DECODE_QUEUE = 16

export type PortraitMime = 'image/jpeg' | 'image/png' | 'image/webp'
export type Portrait = { bytes: Uint8Array; mimeType: PortraitMime; width: number; height: number }
/** What the header says, read without decoding: size and the memory a decode would need. */
export type PortraitHeader = Portrait & { streamable: boolean; decodeBytes: number }

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

type Header = { width: number; height: number; streamable: boolean; decodeBytes: number }

/** IHDR: size, bit depth, colour type, interlace. A non-interlaced PNG decodes row by row. */
function pngHeader(b: Buffer): Header | undefined {
  if (b.length < 29 || b.toString('latin1', 12, 16) !== 'IHDR') return undefined
  const width = b.readUInt32BE(16)
  const height = b.readUInt32BE(20)
  const depth = b[24]!
  const channels = ({ 0: 1, 2: 3, 3: 4, 4: 2, 6: 4 } as Record<number, number>)[b[25]!] ?? 4
  const sampleBytes = depth === 16 ? 2 : 1
  return { width, height, streamable: b[28] === 0, decodeBytes: width * height * channels * sampleBytes }
}

/** The first SOF marker: size and components; a progressive JPEG keeps every coefficient (2 bytes each). */
function jpegHeader(b: Buffer): Header | undefined {
  let i = 2
  while (i + 9 < b.length) {
    // Decoders skip stray bytes between segments; so does this reader.
    if (b[i] !== 0xff) { i++; continue }
    const marker = b[i + 1]!
    if (marker === 0xda || marker === 0xd9) return undefined // scan data or the end before any frame header
    if (marker === 0xff) { i++; continue }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) { i += 2; continue }
    const length = b.readUInt16BE(i + 2)
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      const height = b.readUInt16BE(i + 5)
      const width = b.readUInt16BE(i + 7)
      const components = b[i + 9] ?? 3
      const progressive = marker === 0xc2 || marker === 0xc6 || marker === 0xca || marker === 0xce
      return { width, height, streamable: !progressive, decodeBytes: width * height * components * (progressive ? 2 : 1) }
    }
    i += 2 + length
  }
  return undefined
}

/** VP8, VP8L or VP8X canvas size; libwebp decodes the whole RGBA image at once. */
function webpHeader(b: Buffer): Header | undefined {
  if (b.length < 30) return undefined
  const chunk = b.toString('latin1', 12, 16)
  let width: number
  let height: number
  if (chunk === 'VP8 ') {
    width = b.readUInt16LE(26) & 0x3fff
    height = b.readUInt16LE(28) & 0x3fff
  } else if (chunk === 'VP8L') {
    const bits = b.readUInt32LE(21)
    width = (bits & 0x3fff) + 1
    height = ((bits >> 14) & 0x3fff) + 1
  } else if (chunk === 'VP8X') {
    width = b.readUIntLE(24, 3) + 1
    height = b.readUIntLE(27, 3) + 1
  } else {
    return undefined
  }
  return { width, height, streamable: false, decodeBytes: width * height * 4 }
}

/**
 * The cheap half of the portrait checks, synchronous and without decoding a pixel: base64,
 * at most 4 MB, JPEG, PNG or WebP by magic bytes, consistent with imageType, and the header's
 * size within the pixel bound and the decode-memory bound. Runs before the burns and the
 * payment are checked; the full decode (decodePortrait) runs only after them.
 */
export function inspectPortrait(base64: string, imageType?: string): PortraitHeader {
  const bytes = decodeBase64(base64)
  if (bytes.length > MAX_IMAGE_BYTES) throw invalid(`The image is ${bytes.length} bytes; the limit is ${MAX_IMAGE_BYTES} bytes (4 MB).`)
  const sniffed = sniffImageType(bytes)
  if (!sniffed) throw invalid('The image is not a JPEG, PNG or WebP file.')
  const declared = imageType ?? 'image/png'
  if (imageType !== undefined && declared !== sniffed) {
    throw invalid(`imageType says ${declared} but the bytes are ${sniffed}.`)
  }
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const header = sniffed === 'image/png' ? pngHeader(buffer) : sniffed === 'image/jpeg' ? jpegHeader(buffer) : webpHeader(buffer)
  if (!header) throw invalid('The image could not be decoded (no readable header).')
  const { width, height } = header
  if (width * height > MAX_IMAGE_PIXELS) throw invalid(`The image has ${width}×${height} pixels; at most ${MAX_IMAGE_PIXELS} are accepted.`)
  if (header.decodeBytes > MAX_DECODE_BYTES) {
    throw invalid(
      `The image (${width}×${height}) needs ${Math.round(header.decodeBytes / 1024 / 1024)} MB once decoded; at most ${MAX_DECODE_BYTES / 1024 / 1024} MB are accepted: send fewer pixels or 8-bit samples.`,
    )
  }
  if (width < MIN_IMAGE_SIDE || height < MIN_IMAGE_SIDE) {
    throw invalid(`The image is ${width}×${height} pixels; each side must be at least ${MIN_IMAGE_SIDE}.`)
  }
  return { bytes, mimeType: sniffed, ...header }
}

let decoding = 0
const waiting: Array<() => void> = []

/** At most DECODE_CONCURRENCY decodes at once; a full queue answers 429 at once rather than pile up. */
async function withDecodeSlot<T>(work: () => Promise<T>): Promise<T> {
  if (decoding >= DECODE_CONCURRENCY) {
    if (waiting.length >= DECODE_QUEUE) {
      throw new AppError('RATE_LIMITED', 'Too many portraits are being checked right now; retry in a few seconds.', { details: { retryAfterSeconds: 2 } })
    }
    await new Promise<void>((resolve) => waiting.push(resolve))
  } else {
    decoding++
  }
  try {
    return await work()
  } finally {
    const next = waiting.shift()
    if (next) next()
    else decoding--
  }
}

/**
 * The expensive half: decodes the whole image once to prove it is not truncated or corrupt
 * (so generation cannot fail on it after payment). Bounded: one decode at a time in this
 * process, the header's pixel and memory bounds enforced again by sharp (limitInputPixels),
 * sequential (streaming) access, a time limit. JPEG shrinks on load, so the check is cheap.
 */
export async function decodePortrait(header: PortraitHeader): Promise<Portrait> {
  const { bytes, mimeType, width, height } = header
  await withDecodeSlot(async () => {
    try {
      await sharp(bytes, { ...PORTRAIT_DECODE, sequentialRead: true })
        .resize(32, 32, { fit: 'inside' })
        .raw()
        .timeout({ seconds: DECODE_TIMEOUT_SECONDS })
        .toBuffer()
    } catch (cause) {
      throw invalid('The image could not be decoded (corrupt, truncated or too large).', cause)
    }
  })
  return { bytes, mimeType, width, height }
}

/** Both halves: the header checks, then the bounded full decode. */
export async function parsePortrait(base64: string, imageType?: string): Promise<Portrait> {
  return decodePortrait(inspectPortrait(base64, imageType))
}
