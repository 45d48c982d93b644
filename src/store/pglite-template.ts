import { createHash, randomBytes } from 'node:crypto'
import { createRequire } from 'node:module'
import { cp, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import path from 'node:path'

/**
 * A migrated, empty PGlite data directory kept under `.cache/pglite`, keyed by the migrations
 * and the PGlite version. Creating a PGlite database runs initdb inside WebAssembly (2 to 4 s
 * on a 2-core machine); copying a ready directory and opening it takes about 0.3 s. The first
 * boot of `npm start` and every test database start from it.
 */
const require = createRequire(import.meta.url)
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const cacheDir = path.join(root, '.cache', 'pglite')
export const migrationsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations')

export type PgliteTemplate = {
  /** A data directory to copy; never opened for writing. */
  dir: string
  /** The same directory as a tar archive, for in-memory databases. */
  tarball: string
}

let pending: Promise<PgliteTemplate> | undefined

async function templateKey(): Promise<string> {
  const files = (await readdir(migrationsDir)).filter((f) => f.endsWith('.sql')).sort()
  const hash = createHash('sha256')
  hash.update(await pgliteVersion())
  for (const file of files) hash.update(file).update(await readFile(path.join(migrationsDir, file)))
  return hash.digest('hex').slice(0, 16)
}

/** The package hides package.json behind its exports map: read it beside the entry point. */
async function pgliteVersion(): Promise<string> {
  let dir = path.dirname(require.resolve('@electric-sql/pglite'))
  while (!(await exists(path.join(dir, 'package.json')))) dir = path.dirname(dir)
  return (JSON.parse(await readFile(path.join(dir, 'package.json'), 'utf8')) as { version: string }).version
}

async function exists(file: string): Promise<boolean> {
  return Boolean(await stat(file).catch(() => undefined))
}

/**
 * Returns the template of the current migrations, building it once. Concurrent processes may
 * each build one; each renames its own into place and the first rename wins, so a reader never
 * sees a half-written template.
 */
export function ensurePgliteTemplate(migrate: (db: import('@electric-sql/pglite').PGlite) => Promise<void>): Promise<PgliteTemplate> {
  pending ??= (async () => {
    const key = await templateKey()
    const final = path.join(cacheDir, key)
    const template = { dir: path.join(final, 'data'), tarball: path.join(final, 'data.tar') }
    if (await exists(path.join(final, 'ready'))) return template
    const building = path.join(cacheDir, `${key}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`)
    await mkdir(building, { recursive: true })
    try {
      const { PGlite } = await import('@electric-sql/pglite')
      const db = await PGlite.create(path.join(building, 'data'))
      await migrate(db)
      const tar = await db.dumpDataDir('none')
      await db.close()
      await writeFile(path.join(building, 'data.tar'), Buffer.from(await tar.arrayBuffer()))
      await writeFile(path.join(building, 'ready'), key)
      await rename(building, final).catch(async (error: NodeJS.ErrnoException) => {
        // Another process put its template in place first: it is identical, use it.
        if (!(await exists(path.join(final, 'ready')))) throw error
      })
    } finally {
      await rm(building, { recursive: true, force: true })
    }
    return template
  })()
  pending.catch(() => {
    pending = undefined
  })
  return pending
}

/** Fills an empty or missing data directory with a copy of the template. */
export async function copyTemplateInto(template: PgliteTemplate, dataDir: string): Promise<boolean> {
  const entries = await readdir(dataDir).catch(() => [] as string[])
  if (entries.length > 0) return false
  await mkdir(path.dirname(dataDir), { recursive: true })
  await cp(template.dir, dataDir, { recursive: true })
  return true
}
