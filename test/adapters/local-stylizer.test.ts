import { test, before } from 'node:test'
import assert from 'node:assert/strict'
import sharp from 'sharp'
import { createRequire } from 'node:module'
import path from 'node:path'
import { readFile } from 'node:fs/promises'
import { createLocalStylizer } from '../../src/adapters/image/local-stylizer.ts'
import { createFaceDetector, type Face } from '../../src/adapters/image/face-landmarks.ts'
import { onlyInLeg } from '../support/env.ts'

// The stylizer reaches no backend, so both legs of .ci/run would run the same thing: it runs in
// the embedded leg only.
const skip = onlyInLeg('embedded')

const require = createRequire(import.meta.url)
let photo: Buffer
let faces: Face[]
const stylizer = createLocalStylizer()

before(async () => {
  if (skip) return
  const sample = await readFile(path.join(path.dirname(require.resolve('@vladmandic/face-api/package.json')), 'demo', 'sample1.jpg'))
  // A square portrait: the detected face of a real photo, with room around it.
  const full = await sharp(sample).resize(1024, 1024, { fit: 'inside' }).removeAlpha().raw().toBuffer({ resolveWithObject: true })
  const detector = await createFaceDetector()
  const [face] = await detector.detect(full.data, full.info.width, full.info.height)
  assert.ok(face, 'the sample photo has a face')
  const side = Math.round(Math.min(face.box.width * 2.4, full.info.width, full.info.height))
  const left = Math.round(Math.min(Math.max(face.box.x + face.box.width / 2 - side / 2, 0), full.info.width - side))
  const top = Math.round(Math.min(Math.max(face.box.y + face.box.height / 2 - side / 2, 0), full.info.height - side))
  photo = await sharp(full.data, { raw: { width: full.info.width, height: full.info.height, channels: 3 } }).extract({ left, top, width: side, height: side }).resize(800, 800).jpeg().toBuffer()
  const small = await sharp(photo).raw().toBuffer({ resolveWithObject: true })
  faces = await detector.detect(small.data, small.info.width, small.info.height)
})

const pixel = async (png: Uint8Array, x: number, y: number, radius = 3) => {
  const { data } = await sharp(png).removeAlpha().extract({ left: Math.round(x) - radius, top: Math.round(y) - radius, width: radius * 2, height: radius * 2 }).raw().toBuffer({ resolveWithObject: true })
  let [r, g, b] = [0, 0, 0]
  for (let i = 0; i < data.length; i += 3) [r, g, b] = [r + data[i]!, g + data[i + 1]!, b + data[i + 2]!]
  const n = data.length / 3
  return { r: r / n, g: g / n, b: b / n }
}

test('a portrait becomes a 1024² black-and-white PNG with pink-purple eyes', { skip }, async () => {
  const result = await stylizer.generate({ image: photo, mimeType: 'image/jpeg', seed: '0xabc' })
  assert.equal(result.faceFound, true)
  const meta = await sharp(result.image).metadata()
  assert.deepEqual([meta.format, meta.width, meta.height], ['png', 1024, 1024])
  // The eyes were found in an 800² square that maps 1:1.28 onto the output.
  const face = faces[0]!
  for (const eye of [face.leftEye, face.rightEye]) {
    const { r, g, b } = await pixel(result.image, eye.x * 1.28, eye.y * 1.28)
    assert.ok(r > g + 40 && b > g + 20, `eye is pink-purple: ${JSON.stringify({ r, g, b })}`)
  }
  // Away from the beam, the image is grey: no channel differs much from the others.
  for (const [x, y] of [[20, 1000], [512, 1000], [1000, 1000]]) {
    const { r, g, b } = await pixel(result.image, x, y)
    assert.ok(Math.max(r, g, b) - Math.min(r, g, b) < 6, `grey at ${x},${y}: ${JSON.stringify({ r, g, b })}`)
  }
  // Corners fade into the #19191A background.
  const corner = await pixel(result.image, 8, 8)
  assert.ok(Math.abs(corner.r - 0x19) < 12 && Math.abs(corner.b - 0x1a) < 12, JSON.stringify(corner))
})

test('the result is the uploaded portrait: its tones follow the original, pixel for pixel', { skip }, async () => {
  const result = await stylizer.generate({ image: photo, mimeType: 'image/jpeg', seed: 'tones' })
  const small = (bytes: Uint8Array | Buffer) => sharp(bytes).resize(32, 32, { fit: 'fill' }).toColourspace('b-w').raw().toBuffer()
  const [a, b] = [await small(photo), await small(result.image)]
  const mean = (v: Buffer) => v.reduce((s, x) => s + x, 0) / v.length
  const [ma, mb] = [mean(a), mean(b)]
  let [cov, va, vb] = [0, 0, 0]
  // The vignette darkens the border: compare the central 24 × 24 area.
  for (let y = 4; y < 28; y++) {
    for (let x = 4; x < 28; x++) {
      const i = y * 32 + x
      cov += (a[i]! - ma) * (b[i]! - mb)
      va += (a[i]! - ma) ** 2
      vb += (b[i]! - mb) ** 2
    }
  }
  const correlation = cov / Math.sqrt(va * vb)
  assert.ok(correlation > 0.8, `correlation with the original ${correlation.toFixed(2)}`)
})

test('the same seed gives the same bytes; another seed other grain', { skip }, async () => {
  const a = await stylizer.generate({ image: photo, mimeType: 'image/jpeg', seed: 'seed-1' })
  const b = await stylizer.generate({ image: photo, mimeType: 'image/jpeg', seed: 'seed-1' })
  const c = await stylizer.generate({ image: photo, mimeType: 'image/jpeg', seed: 'seed-2' })
  assert.deepEqual(a.image, b.image)
  assert.notDeepEqual(a.image, c.image)
})

test('the thread pool gives every portrait of a concurrent batch the bytes the stylizer gives it alone', { skip }, async () => {
  const { createThreadedStylizer } = await import('../../src/adapters/image/threaded-stylizer.ts')
  const pool = createThreadedStylizer({ threads: 2 })
  try {
    const seeds = ['pool-1', 'pool-2', 'pool-3']
    const together = await Promise.all(seeds.map((seed) => pool.generate({ image: photo, mimeType: 'image/jpeg', seed })))
    for (const [i, seed] of seeds.entries()) {
      const alone = await stylizer.generate({ image: photo, mimeType: 'image/jpeg', seed })
      assert.deepEqual(together[i]!.image, alone.image, seed)
    }
  } finally {
    await pool.close?.()
  }
})

test('without a face: the fallback beam at 42% height, no eye glows', { skip }, async () => {
  const flat = await sharp({ create: { width: 900, height: 700, channels: 3, background: { r: 150, g: 150, b: 150 } } }).png().toBuffer()
  const result = await stylizer.generate({ image: flat, mimeType: 'image/png', seed: 'x' })
  assert.equal(result.faceFound, false)
  const onBeam = await pixel(result.image, 512, 1024 * 0.42, 1)
  const offBeam = await pixel(result.image, 512, 700)
  assert.ok(onBeam.r > onBeam.g + 30, `beam is pink: ${JSON.stringify(onBeam)}`)
  assert.ok(Math.abs(offBeam.r - offBeam.g) < 6, `elsewhere grey: ${JSON.stringify(offBeam)}`)
})

test('an image the pre-payment check accepts is one the stylizer reads: a JPEG with a damaged segment', { skip }, async () => {
  const { portraitBase64 } = await import('../support/agent.ts')
  const { parsePortrait } = await import('../../src/pipeline/parse-portrait.ts')
  const bytes = Buffer.from(await portraitBase64(), 'base64')
  // 40 bytes of 0xFF halfway through the entropy-coded data: libvips warns, it does not fail.
  bytes.fill(0xff, bytes.length >> 1, (bytes.length >> 1) + 40)
  const portrait = await parsePortrait(bytes.toString('base64'))
  // Accepted before payment (the check reads with failOn 'error')...
  assert.equal(portrait.mimeType, 'image/jpeg')
  // ...so generation, after payment, must read it too (libvips' default refused it).
  await assert.rejects(sharp(bytes).raw().toBuffer(), 'the default decoder refuses these bytes, or this test proves nothing')
  const out = await stylizer.generate({ image: portrait.bytes, mimeType: portrait.mimeType, seed: '0x01' })
  const meta = await sharp(out.image).metadata()
  assert.deepEqual([meta.format, meta.width, meta.height], ['png', 1024, 1024])
})
