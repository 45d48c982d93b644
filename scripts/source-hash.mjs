// Plain JavaScript (no TypeScript loader), shared by `npm run build` (scripts/build.ts) and the
// `npm start` launcher (scripts/start.mjs): whether dist/ is the build of the current sources.
import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const require = createRequire(import.meta.url)
export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
export const srcDir = path.join(root, 'src')
export const distDir = path.join(root, 'dist')
export const hashFile = path.join(distDir, '.build-hash')

/** Every file under dir, sorted. */
export function files(dir) {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => (entry.isDirectory() ? files(path.join(dir, entry.name)) : [path.join(dir, entry.name)]))
    .sort()
}

export const isTest = (file) => file.endsWith('.test.ts')

/** The sources (tests excepted), the build configuration and the compiler and bundler versions, hashed. */
export function sourceHash() {
  const hash = createHash('sha256')
  for (const file of files(srcDir).filter((f) => !isTest(f))) hash.update(path.relative(root, file)).update(readFileSync(file))
  for (const file of ['tsconfig.json', 'tsconfig.build.json']) hash.update(readFileSync(path.join(root, file)))
  hash.update(require('typescript/package.json').version)
  hash.update(require('esbuild/package.json').version)
  return hash.digest('hex').slice(0, 16)
}

/** Whether dist/ holds the build of the current sources. */
export function isBuilt() {
  return existsSync(hashFile) && readFileSync(hashFile, 'utf8') === sourceHash()
}

/**
 * The module at `compiled` (under dist/) when dist/ is the build of the current sources, else
 * the module at `source` (under src/) through tsx: how `npm start` and the CLI bin load.
 * Without the TypeScript package to hash with (an install without devDependencies) it runs the
 * sources. `onSource` is told when the sources are used.
 */
export async function importBuiltOrSource(compiled, source, onSource = () => {}) {
  let built = false
  try {
    built = isBuilt()
  } catch {
    // no TypeScript package to hash with: run the sources
  }
  if (built) return import(compiled)
  onSource()
  const { register } = await import('tsx/esm/api')
  register()
  return import(source)
}
