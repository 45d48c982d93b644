/**
 * The image attack of issue 9, measured: a ~0.5 MB 40-megapixel 16-bit interlaced PNG, and
 * the largest PNG still accepted (40 megapixels, 8-bit RGB, not interlaced), each checked once
 * and 12 at a time, through the check before the fix (metadata, then a full decode) and
 * through the current one (header check; the bounded full decode). CPU time of this process
 * and peak RSS above the start.
 *
 *   node --import tsx bench/image-bomb.ts
 */
import sharp from 'sharp'
import { inspectPortrait, decodePortrait, MAX_IMAGE_PIXELS } from '../src/pipeline/parse-portrait.ts'
import { runDate, yesNo, type BenchResult } from './summary.ts'

/** The probe's image: 8000×5000, 16-bit RGBA, interlaced (320 MB once decoded). */
const attack = () =>
  sharp({ create: { width: 8000, height: 5000, channels: 4, background: { r: 10, g: 20, b: 30, alpha: 1 } } })
    .toColourspace('rgb16')
    .png({ progressive: true, compressionLevel: 9 })
    .toBuffer()
/** The largest PNG still accepted: 8000×5000, 8-bit RGB, not interlaced (114 MB once decoded). */
const largest = () =>
  sharp({ create: { width: 8000, height: 5000, channels: 3, background: { r: 10, g: 20, b: 30 } } })
    .png({ compressionLevel: 9 })
    .toBuffer()

/** The check before the fix: metadata, then a full decode of every image at once. */
async function before(bytes: Buffer) {
  await sharp(bytes, { limitInputPixels: false }).metadata()
  await sharp(bytes, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'error' }).resize(32, 32, { fit: 'inside' }).raw().toBuffer()
}

async function after(bytes: Buffer) {
  try {
    await decodePortrait(inspectPortrait(bytes.toString('base64')))
  } catch (error) {
    if ((error as { code?: string }).code !== 'INVALID_IMAGE') throw error
  }
}

type Measured = { row: string; cpuMs: number; rssMb: number }

async function measure(label: string, run: () => Promise<unknown>): Promise<Measured> {
  global.gc?.()
  const rss0 = process.memoryUsage().rss
  let peak = rss0
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5)
  const cpu0 = process.cpuUsage()
  const t0 = performance.now()
  await run()
  const wall = performance.now() - t0
  const cpu = process.cpuUsage(cpu0)
  clearInterval(timer)
  peak = Math.max(peak, process.memoryUsage().rss)
  const cpuMs = (cpu.user + cpu.system) / 1000
  const rssMb = (peak - rss0) / 1024 / 1024
  return { row: `| ${label} | ${wall.toFixed(0)} | ${cpuMs.toFixed(0)} | +${rssMb.toFixed(0)} |`, cpuMs, rssMb }
}

export async function benchImageBomb(): Promise<BenchResult> {
  const bomb = await attack()
  const flat = await largest()
  const twelve = (check: (bytes: Buffer) => Promise<unknown>, bytes: Buffer) => () => Promise.all(Array.from({ length: 12 }, () => check(bytes)))
  const measured = {
    beforeOne: await measure('before: attack PNG, 1', () => before(bomb)),
    beforeTwelve: await measure('before: attack PNG, 12 in parallel', twelve(before, bomb)),
    nowOne: await measure('now: attack PNG, 1 (refused from its header)', () => after(bomb)),
    nowTwelve: await measure('now: attack PNG, 12 in parallel', twelve(after, bomb)),
    beforeLargest: await measure('before: largest accepted PNG, 12 in parallel', twelve(before, flat)),
    nowLargest: await measure('now: largest accepted PNG, 1 (decoded)', () => after(flat)),
    nowLargestTwelve: await measure('now: largest accepted PNG, 12 (one at a time)', twelve(after, flat)),
  }
  const { beforeOne, nowOne, nowTwelve } = measured
  const rows = [
    `attack PNG: ${bomb.length} bytes (8000×5000, 16-bit RGBA, interlaced); largest accepted PNG: ${flat.length} bytes (8000×5000, 8-bit RGB)`,
    '',
    '| check | wall ms | CPU ms | peak RSS MB |',
    '| --- | --- | --- | --- |',
    ...Object.values(measured).map((m) => m.row),
  ]
  // Bounded: the attack refused before any decode, far below what one full decode costs.
  const bounded = nowTwelve.rssMb < 64 && nowOne.cpuMs < beforeOne.cpuMs / 10
  return {
    section: rows.join('\n'),
    headlines: [
      {
        name: 'image-bomb',
        figure: `the attack PNG refused from its header: ${nowOne.cpuMs.toFixed(0)} ms CPU, +${nowOne.rssMb.toFixed(0)} MB`,
        baseline: `full decode: ${(beforeOne.cpuMs / 1000).toFixed(2)} s CPU, +${beforeOne.rssMb.toFixed(0)} MB`,
        ratio: `${(nowOne.cpuMs / Math.max(1, beforeOne.cpuMs)).toFixed(3)} CPU`,
        target: 'bounded memory and CPU',
        met: yesNo(bounded),
        date: runDate(),
      },
    ],
  }
}
