import { createHash } from 'node:crypto'
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { build } from 'esbuild'

/** The repository root: web/ holds the browser code, .cache/ what is built from it. */
const ROOT = fileURLToPath(new URL('../../', import.meta.url))
export const WEB_SOURCE_DIR = path.join(ROOT, 'web')
export const WEB_CACHE_DIR = path.join(ROOT, '.cache', 'web')

/** The pages and their browser entry points under web/. */
export const ENTRIES = { home: 'home.ts', early: 'early.ts' } as const
export type EntryName = keyof typeof ENTRIES

/** Packages bundled into the page: a new version makes a new build. */
const BUNDLED_PACKAGES = ['esbuild', 'uplot', 'viem']

export type Asset = {
  name: string
  contentType: string
  bytes: Buffer
  /** Compressed on first use, then kept: start-up does not pay for files nobody asks for (source maps). */
  gzip(): Buffer
  etag: string
}
export type WebAssets = {
  /** Identifies the sources and package versions the assets were built from. */
  key: string
  entries: Record<EntryName, { script: string; styles: string[] }>
  files: Map<string, Asset>
  /** Whether this call bundled (false: read from the cache). */
  built: boolean
}

type Manifest = { key: string; entries: WebAssets['entries']; files: string[] }

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
}

/**
 * The page's JavaScript and CSS, bundled by esbuild from web/ with a content hash in every file
 * name. Built once per version of the sources and of the bundled packages into
 * `.cache/web/<key>/` (the first start after a change pays ~1 s), then read from there. Several
 * processes may build at once: each writes a directory of its own and renames it into place.
 * A read-only cache directory only costs the reuse: the bundle is then served from memory.
 */
export async function loadWebAssets(options: { cacheDir?: string; sourceDir?: string } = {}): Promise<WebAssets> {
  const sourceDir = options.sourceDir ?? WEB_SOURCE_DIR
  const cacheDir = options.cacheDir ?? WEB_CACHE_DIR
  const key = await sourceKey(sourceDir)
  const dir = path.join(cacheDir, key)
  const cached = await readBuild(dir, key)
  if (cached) return { ...cached, built: false }

  const fresh = await bundle(sourceDir, key)
  const tmp = `${dir}.tmp-${process.pid}-${Date.now()}`
  try {
    await mkdir(tmp, { recursive: true })
    await Promise.all([...fresh.outputs].map(([name, bytes]) => writeFile(path.join(tmp, name), bytes)))
    await writeFile(path.join(tmp, 'manifest.json'), JSON.stringify(fresh.manifest))
    await rename(tmp, dir).catch(async (error: NodeJS.ErrnoException) => {
      // Another process renamed its identical build into place first.
      if (error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') throw error
      await rm(tmp, { recursive: true, force: true })
    })
  } catch {
    await rm(tmp, { recursive: true, force: true }).catch(() => undefined)
  }
  return { key, entries: fresh.manifest.entries, files: toAssets(fresh.outputs), built: true }
}

async function readBuild(dir: string, key: string): Promise<Omit<WebAssets, 'built'> | undefined> {
  try {
    const manifest = JSON.parse(await readFile(path.join(dir, 'manifest.json'), 'utf8')) as Manifest
    if (manifest.key !== key) return undefined
    const outputs = new Map(await Promise.all(manifest.files.map(async (name) => [name, await readFile(path.join(dir, name))] as const)))
    return { key, entries: manifest.entries, files: toAssets(outputs) }
  } catch {
    return undefined
  }
}

async function bundle(sourceDir: string, key: string): Promise<{ manifest: Manifest; outputs: Map<string, Buffer> }> {
  const outdir = path.join(sourceDir, '.out')
  const result = await build({
    absWorkingDir: sourceDir,
    entryPoints: Object.fromEntries(Object.entries(ENTRIES).map(([name, file]) => [name, path.join(sourceDir, file)])),
    outdir,
    bundle: true,
    // Code both pages use (formatting, the DOM helper) is loaded once, as a shared chunk.
    splitting: true,
    format: 'esm',
    minify: true,
    sourcemap: 'linked',
    target: ['es2022', 'chrome111', 'firefox111', 'safari16'],
    entryNames: '[name]-[hash]',
    chunkNames: 'chunk-[hash]',
    assetNames: '[name]-[hash]',
    write: false,
    metafile: true,
    logLevel: 'silent',
  })
  const outputs = new Map(result.outputFiles.map((file) => [path.relative(outdir, file.path), Buffer.from(file.contents)]))
  const entries = {} as WebAssets['entries']
  for (const [file, output] of Object.entries(result.metafile.outputs)) {
    const entry = Object.entries(ENTRIES).find(([, source]) => output.entryPoint && path.basename(output.entryPoint) === source)
    if (!entry) continue
    const url = (out: string) => `/assets/${path.relative(path.relative(sourceDir, outdir), out)}`
    entries[entry[0] as EntryName] = { script: url(file), styles: output.cssBundle ? [url(output.cssBundle)] : [] }
  }
  return { manifest: { key, entries, files: [...outputs.keys()] }, outputs }
}

function toAssets(outputs: Map<string, Buffer>): Map<string, Asset> {
  return new Map(
    [...outputs].map(([name, bytes]) => [
      name,
      {
        name,
        contentType: CONTENT_TYPES[path.extname(name)] ?? 'application/octet-stream',
        bytes,
        gzip: lazyGzip(bytes),
        etag: etagOf(bytes),
      },
    ]),
  )
}

export function lazyGzip(bytes: Buffer): () => Buffer {
  let gzip: Buffer | undefined
  return () => (gzip ??= gzipSync(bytes, { level: 9 }))
}

export function etagOf(bytes: Buffer): string {
  return `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 22)}"`
}

/** A hash of every file under web/ and of the versions of the bundled packages. */
async function sourceKey(sourceDir: string): Promise<string> {
  const hash = createHash('sha256')
  const files = (await readdir(sourceDir, { recursive: true, withFileTypes: true }))
    .filter((entry) => entry.isFile() && !entry.name.endsWith('.test.ts'))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .filter((file) => !path.relative(sourceDir, file).startsWith('.'))
    .sort()
  for (const file of files) hash.update(path.relative(sourceDir, file)).update('\0').update(await readFile(file)).update('\0')
  const require = createRequire(import.meta.url)
  for (const name of BUNDLED_PACKAGES) {
    const { version } = JSON.parse(await readFile(require.resolve(`${name}/package.json`), 'utf8')) as { version: string }
    hash.update(`${name}@${version}\0`)
  }
  return hash.digest('hex').slice(0, 16)
}
