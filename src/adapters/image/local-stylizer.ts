import sharp from 'sharp'
import { createHash } from 'node:crypto'
import type { ImageGenerator } from './port.ts'
import { createFaceDetector, type Face, type FaceDetector, type Point } from './face-landmarks.ts'
import { PORTRAIT_DECODE } from './decode-options.ts'

export const OUTPUT_SIZE = 1024
const BACKGROUND = { r: 0x19, g: 0x19, b: 0x1a }
const LASER_CORE = '#FF8AA8'
const LASER_GLOW = '#F786C6'
/** Where the beam runs when no face is found: a fixed height across the centre. */
export const FALLBACK_EYE_LINE = 0.42
/** The longest side of the copy the face is found on. */
const DETECT_SIDE = 384

/** Grey levels below which `lowFraction` and `highFraction` of the pixels fall. */
function percentiles(gray: Uint8Array, lowFraction: number, highFraction: number): [number, number] {
  const histogram = new Uint32Array(256)
  for (let i = 0; i < gray.length; i++) histogram[gray[i]!]!++
  const find = (fraction: number) => {
    let seen = 0
    for (let level = 0; level < 256; level++) {
      seen += histogram[level]!
      if (seen >= fraction * gray.length) return level
    }
    return 255
  }
  return [find(lowFraction), find(highFraction)]
}

let fadeTable: Float32Array | undefined

/** How much each output pixel fades into the background: 0 in the middle, 1 in the corners. */
function fadeMap(): Float32Array {
  if (fadeTable) return fadeTable
  const table = new Float32Array(OUTPUT_SIZE * OUTPUT_SIZE)
  const centre = OUTPUT_SIZE / 2
  for (let y = 0; y < OUTPUT_SIZE; y++) {
    for (let x = 0; x < OUTPUT_SIZE; x++) {
      const distance = Math.hypot(x - centre, y - centre) / (OUTPUT_SIZE * 0.72)
      table[y * OUTPUT_SIZE + x] = Math.min(1, Math.max(0, (distance - 0.55) / 0.45)) ** 1.5
    }
  }
  return (fadeTable = table)
}

/**
 * Pixel buffers reused from one portrait to the next (by size): a portrait needs 4 MB of them,
 * and allocating them anew each time made the thread's V8 collect its whole heap every two or
 * three portraits (external memory counts towards its GC triggers). A buffer is given back only
 * once nothing reads it any more (the PNG encoder reads the RGB one asynchronously).
 */
const scratch = new Map<number, Buffer[]>()
function takeScratch(size: number): Buffer {
  return scratch.get(size)?.pop() ?? Buffer.allocUnsafe(size)
}
function giveBack(buffer: Buffer) {
  const free = scratch.get(buffer.length) ?? []
  // Two of each at most: a thread works on one or two portraits at a time.
  if (free.length < 2) free.push(buffer)
  scratch.set(buffer.length, free)
}

/** The state of a small deterministic PRNG (xorshift128) seeded from a string, for reproducible grain. */
function seedState(seed: string): [number, number, number, number] {
  const h = createHash('sha256').update(seed).digest()
  return [h.readUInt32LE(0), h.readUInt32LE(4), h.readUInt32LE(8), h.readUInt32LE(12) || 1]
}

/** A face found on a scaled copy, in the coordinates of the full frame. */
function scaleFace(face: Face, sx: number, sy: number): Face {
  const at = (p: Point): Point => ({ x: p.x * sx, y: p.y * sy })
  return { ...face, box: { x: face.box.x * sx, y: face.box.y * sy, width: face.box.width * sx, height: face.box.height * sy }, leftEye: at(face.leftEye), rightEye: at(face.rightEye) }
}

function largest(faces: Face[]): Face | undefined {
  return faces.reduce<Face | undefined>((best, f) => (!best || f.box.width * f.box.height > best.box.width * best.box.height ? f : best), undefined)
}

type Rgb = readonly [number, number, number]
const rgbOf = (hex: string): Rgb => [parseInt(hex.slice(1, 3), 16), parseInt(hex.slice(3, 5), 16), parseInt(hex.slice(5, 7), 16)]
const CORE = rgbOf(LASER_CORE)
const GLOW = rgbOf(LASER_GLOW)

/**
 * The beam and the eye glows, painted into the pixels: a soft glow screened onto the portrait
 * (a band whose opacity falls off across the beam, and a halo round each eye), then the hot
 * pink cores painted over it, so the eyes read pink whatever the skin tone beneath. Done here
 * rather than as SVG layers composited by libvips: rasterizing and compositing two 1024²
 * layers cost a third of a portrait's CPU, for a few thousand rows' worth of pixels that
 * change. Only the rows the beam or an eye reaches are visited.
 */
function paintLasers(rgb: Buffer, left: Point, right: Point, faceFound: boolean) {
  const size = OUTPUT_SIZE
  const distance = Math.max(40, Math.hypot(right.x - left.x, right.y - left.y))
  const slope = faceFound && right.x !== left.x ? (right.y - left.y) / (right.x - left.x) : 0
  const beam = Math.max(3, distance * 0.045)
  const halfGlow = beam * 4
  const halfBeam = beam / 2
  // Perpendicular distance from the beam's centre line = vertical offset × cos(angle).
  const cosine = 1 / Math.sqrt(1 + slope * slope)
  const eyes = faceFound ? [left, right] : []
  const haloRadius = distance * 0.6
  const coreRadius = distance * 0.16
  const yAt = (x: number) => left.y + slope * (x - left.x)
  const reach = Math.max(halfGlow, halfBeam + 1)
  let top = Math.min(yAt(0), yAt(size)) - reach
  let bottom = Math.max(yAt(0), yAt(size)) + reach
  for (const eye of eyes) {
    top = Math.min(top, eye.y - haloRadius)
    bottom = Math.max(bottom, eye.y + haloRadius)
  }
  const y0 = Math.max(0, Math.floor(top))
  const y1 = Math.min(size - 1, Math.ceil(bottom))
  for (let y = y0; y <= y1; y++) {
    const py = y + 0.5
    for (let x = 0; x < size; x++) {
      const px = x + 0.5
      const offset = Math.abs(py - yAt(px)) * cosine
      // The glow layer: the band and the halos, one colour, their opacities stacked.
      let clear = offset < halfGlow ? 1 - 0.7 * (1 - offset / halfGlow) : 1
      // The core layer: the beam's line (anti-aliased edge), then each eye's core over it.
      let coreAlpha = Math.min(1, Math.max(0, halfBeam + 0.5 - offset))
      let coreR = CORE[0]
      let coreG = CORE[1]
      let coreB = CORE[2]
      for (const eye of eyes) {
        const r = Math.hypot(px - eye.x, py - eye.y)
        if (r < haloRadius) clear *= 1 - 0.9 * (1 - r / haloRadius)
        if (r < coreRadius) {
          // Stops: the core colour opaque at the centre, 0.9 at 0.6 of the radius, the glow colour transparent at the rim.
          const t = r / coreRadius
          const u = t <= 0.6 ? 0 : (t - 0.6) / 0.4
          const alpha = t <= 0.6 ? 1 - (0.1 * t) / 0.6 : 0.9 * (1 - u)
          const cr = CORE[0] + (GLOW[0] - CORE[0]) * u
          const cg = CORE[1] + (GLOW[1] - CORE[1]) * u
          const cb = CORE[2] + (GLOW[2] - CORE[2]) * u
          const under = coreAlpha * (1 - alpha)
          const total = alpha + under
          if (total > 0) {
            coreR = (cr * alpha + coreR * under) / total
            coreG = (cg * alpha + coreG * under) / total
            coreB = (cb * alpha + coreB * under) / total
          }
          coreAlpha = total
        }
      }
      const glowAlpha = 1 - clear
      if (glowAlpha <= 0 && coreAlpha <= 0) continue
      const i = (y * size + x) * 3
      for (let c = 0; c < 3; c++) {
        const under = rgb[i + c]!
        // Screen: the glow lightens what is under it, never darkens.
        const screened = under + (glowAlpha * GLOW[c]! * (255 - under)) / 255
        const coreColour = c === 0 ? coreR : c === 1 ? coreG : coreB
        rgb[i + c] = Math.round(screened + (coreColour - screened) * coreAlpha)
      }
    }
  }
}

/**
 * The embedded image generator: a square black-and-white portrait with high contrast and
 * film grain, fading into a #19191A background, with a pink-purple laser glow through both
 * eyes located by a face-landmark model. No key, no network. Without a face it keeps the
 * centre crop and draws the beam at a fixed height (42 % from the top), with no eye glows.
 */
export function createLocalStylizer(options: { detector?: () => Promise<FaceDetector> } = {}): ImageGenerator & { warm(): Promise<void> } {
  let detector: Promise<FaceDetector> | undefined
  const getDetector = () => (detector ??= (options.detector ?? createFaceDetector)())

  return {
    name: 'local-stylizer',
    /** Loads the face model now rather than on the first portrait. */
    async warm() {
      await getDetector()
    },
    async generate({ image, seed }) {
      // Read as the pre-payment check read it: what it accepted is paid for and must be generated.
      // One decode: the face is found on a small copy of it, the grey crop is made from it.
      const source = await sharp(image, PORTRAIT_DECODE)
        .rotate()
        .resize(OUTPUT_SIZE, OUTPUT_SIZE, { fit: 'inside', withoutEnlargement: true })
        .toColourspace('srgb')
        .removeAlpha()
        .raw()
        .toBuffer({ resolveWithObject: true })
      const { width, height } = source.info
      const raw = { raw: { width, height, channels: 3 as const } }
      // The detector scales every input to its own 256² first and the mesh works on a 192²
      // crop of the face: a copy of at most DETECT_SIDE pixels finds the same eyes (within
      // 2-3 px of 1024) for half the CPU of the full frame.
      const detectScale = Math.min(1, DETECT_SIDE / Math.max(width, height))
      const small = detectScale < 1 ? await sharp(source.data, raw).resize(Math.round(width * detectScale), Math.round(height * detectScale), { fit: 'fill' }).raw().toBuffer({ resolveWithObject: true }) : { data: source.data, info: source.info }
      const found = largest(await (await getDetector()).detect(small.data, small.info.width, small.info.height))
      const face = found && scaleFace(found, width / small.info.width, height / small.info.height)

      // Square crop around the face (or the centre), scaled to the output size.
      const side = Math.min(width, height)
      const cx = face ? face.box.x + face.box.width / 2 : width / 2
      const cy = face ? face.box.y + face.box.height / 2 : height / 2
      const left = Math.round(Math.min(Math.max(cx - side / 2, 0), width - side))
      const top = Math.round(Math.min(Math.max(cy - side / 2, 0), height - side))
      const scale = OUTPUT_SIZE / side
      const toOutput = (p: Point): Point => ({ x: (p.x - left) * scale, y: (p.y - top) * scale })

      // The grey crop, read straight from the RGB frame: luma of the square, stretched to the
      // output size by bilinear sampling in the pixel loop below (libvips took 30-50 ms to crop,
      // upscale and convert 1024² pixels; this is a few ms).
      const lumaScratch = takeScratch(OUTPUT_SIZE * OUTPUT_SIZE)
      const luma = lumaScratch.subarray(0, side * side)
      for (let y = 0; y < side; y++) {
        let from = ((top + y) * width + left) * 3
        for (let x = 0, to = y * side; x < side; x++, to++, from += 3) {
          luma[to] = (source.data[from]! * 77 + source.data[from + 1]! * 150 + source.data[from + 2]! * 29) >> 8
        }
      }
      const [low, high] = percentiles(luma, 0.01, 0.99)
      const gain = (255 / Math.max(1, high - low)) * 1.35
      // Where each output column samples the crop: the two source columns and the weight of the second.
      const inverse = side / OUTPUT_SIZE
      const sampleOf = (i: number) => Math.min(side - 1, Math.max(0, (i + 0.5) * inverse - 0.5))
      const column0 = new Int32Array(OUTPUT_SIZE)
      const column1 = new Int32Array(OUTPUT_SIZE)
      const columnWeight = new Float32Array(OUTPUT_SIZE)
      for (let x = 0; x < OUTPUT_SIZE; x++) {
        const at = sampleOf(x)
        column0[x] = Math.floor(at)
        column1[x] = Math.min(side - 1, column0[x]! + 1)
        columnWeight[x] = at - column0[x]!
      }

      // Grain and the fade to the background, in one pass over the pixels (the PRNG inlined:
      // a call per pixel was a fifth of this loop).
      let [a, b, c, d] = seedState(seed)
      const fades = fadeMap()
      const rgb = takeScratch(OUTPUT_SIZE * OUTPUT_SIZE * 3)
      const offset = -low * gain - 0.175 * 255
      for (let y = 0, i = 0, o = 0; y < OUTPUT_SIZE; y++) {
        const at = sampleOf(y)
        const row0 = Math.floor(at) * side
        const row1 = Math.min(side - 1, Math.floor(at) + 1) * side
        const rowWeight = at - Math.floor(at)
        for (let x = 0; x < OUTPUT_SIZE; x++, i++, o += 3) {
          const x0 = column0[x]!
          const x1 = column1[x]!
          const wx = columnWeight[x]!
          const upper = luma[row0 + x0]! + (luma[row0 + x1]! - luma[row0 + x0]!) * wx
          const lower = luma[row1 + x0]! + (luma[row1 + x1]! - luma[row1 + x0]!) * wx
          const grey = upper + (lower - upper) * rowWeight
          const t = a ^ (a << 11)
          a = b
          b = c
          c = d
          d = (d ^ (d >>> 19) ^ (t ^ (t >>> 8))) >>> 0
          // Stretch to full range with extra contrast around mid-grey, then grain.
          const grained = grey * gain + offset + (d / 4294967296 - 0.5) * 34
          const value = grained < 0 ? 0 : grained > 255 ? 255 : grained
          const fade = fades[i]!
          const keep = value * (1 - fade)
          // Buffer stores truncate toward zero, as before.
          rgb[o] = keep + BACKGROUND.r * fade
          rgb[o + 1] = keep + BACKGROUND.g * fade
          rgb[o + 2] = keep + BACKGROUND.b * fade
        }
      }

      const leftEye = face ? toOutput(face.leftEye) : { x: OUTPUT_SIZE * 0.38, y: OUTPUT_SIZE * FALLBACK_EYE_LINE }
      const rightEye = face ? toOutput(face.rightEye) : { x: OUTPUT_SIZE * 0.62, y: OUTPUT_SIZE * FALLBACK_EYE_LINE }
      paintLasers(rgb, leftEye, rightEye, Boolean(face))
      giveBack(lumaScratch)
      const png = await sharp(rgb, { raw: { width: OUTPUT_SIZE, height: OUTPUT_SIZE, channels: 3 } })
        .png({ compressionLevel: 1, adaptiveFiltering: false })
        .toBuffer()
        .finally(() => giveBack(rgb))
      return { image: new Uint8Array(png), mimeType: 'image/png', faceFound: Boolean(face) }
    },
    async close() {},
  }
}
