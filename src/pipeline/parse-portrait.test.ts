import { test } from 'node:test'
import assert from 'node:assert/strict'
import sharp from 'sharp'
import { parsePortrait, MAX_IMAGE_BYTES } from './parse-portrait.ts'

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
