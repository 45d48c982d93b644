import { test } from 'node:test'
import assert from 'node:assert/strict'
import sharp from 'sharp'
import { parsePortrait, inspectPortrait, MAX_IMAGE_BYTES } from './parse-portrait.ts'

const image = (format: 'png' | 'jpeg' | 'webp', size = 128) =>
  sharp({ create: { width: size, height: size, channels: 3, background: { r: 200, g: 120, b: 90 } } })[format]().toBuffer()

test('JPEG, PNG and WebP are recognised by their bytes', async () => {
  for (const [format, mime] of [['png', 'image/png'], ['jpeg', 'image/jpeg'], ['webp', 'image/webp']] as const) {
    const bytes = await image(format)
    const parsed = await parsePortrait(bytes.toString('base64'))
    assert.equal(parsed.mimeType, mime)
    assert.equal(parsed.width, 128)
    assert.deepEqual(Buffer.from(parsed.bytes), bytes)
  }
})

test('a data URI is accepted', async () => {
  const bytes = await image('png')
  assert.equal((await parsePortrait(`data:image/png;base64,${bytes.toString('base64')}`)).mimeType, 'image/png')
})

const refuses = async (base64: string, imageType: string | undefined, pattern: RegExp) => {
  await assert.rejects(parsePortrait(base64, imageType), (error: any) => {
    assert.equal(error.code, 'INVALID_IMAGE')
    assert.match(error.message, pattern)
    return true
  })
}

test('bad images are refused with INVALID_IMAGE and a reason', async () => {
  const png = (await image('png')).toString('base64')
  await refuses('', undefined, /empty|base64/)
  await refuses('not base64 at all!', undefined, /base64/)
  await refuses(Buffer.from('GIF89a........').toString('base64'), undefined, /JPEG, PNG or WebP/)
  await refuses(png, 'image/jpeg', /imageType says image\/jpeg/)
  await refuses((await image('png', 16)).toString('base64'), undefined, /at least 64/)
  const truncated = (await image('jpeg', 512)).subarray(0, 300)
  await refuses(truncated.toString('base64'), undefined, /could not be decoded/)
  await refuses(Buffer.alloc(MAX_IMAGE_BYTES + 10, 1).toString('base64'), undefined, /larger than|limit/)
})

test('a decompression bomb is refused before it is decoded', async () => {
  // A tiny PNG that decodes to 49 megapixels.
  const bomb = await sharp({ create: { width: 7_000, height: 7_000, channels: 3, background: { r: 0, g: 0, b: 0 } } }).png({ compressionLevel: 9 }).toBuffer()
  assert.ok(bomb.length < MAX_IMAGE_BYTES)
  await refuses(bomb.toString('base64'), undefined, /pixels/)
})

test('the header alone refuses what would decode too large, without decoding (issue 9)', async () => {
  // 4000×2500 pixels (10 MP, under the pixel bound) as 16-bit RGBA: 76 MB decoded, accepted;
  // the same as a progressive JPEG or at 8000×5000: refused from the header.
  const png16 = await sharp({ create: { width: 4000, height: 2500, channels: 4, background: { r: 1, g: 2, b: 3, alpha: 1 } } }).toColourspace('rgb16').png({ progressive: true }).toBuffer()
  const header = inspectPortrait(png16.toString('base64'))
  assert.deepEqual({ width: header.width, height: header.height, streamable: header.streamable, decodeBytes: header.decodeBytes }, { width: 4000, height: 2500, streamable: false, decodeBytes: 80_000_000 })
  const progressive = await sharp({ create: { width: 6000, height: 6000, channels: 3, background: { r: 1, g: 2, b: 3 } } }).jpeg({ progressive: true }).toBuffer()
  const started = performance.now()
  assert.throws(() => inspectPortrait(progressive.toString('base64')), (error: any) => error.code === 'INVALID_IMAGE' && /206 MB once decoded/.test(error.message))
  assert.ok(performance.now() - started < 50, 'no decode')
  // Stray bytes between JPEG segments are skipped, as decoders do.
  const jpeg = await image('jpeg', 300)
  const firstSegmentEnd = 4 + jpeg.readUInt16BE(4)
  const padded = Buffer.concat([jpeg.subarray(0, firstSegmentEnd), Buffer.from([0x00, 0x00]), jpeg.subarray(firstSegmentEnd)])
  assert.equal(inspectPortrait(padded.toString('base64')).width, 300)
})
