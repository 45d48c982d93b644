// Run at install. EDR (the devnet's EVM) ships its engine as one native package per platform,
// listed in optionalDependencies. Those packages declare `engines: node >= 22`, and npm skips an
// optional dependency whose engine check fails, so on Node 20 the engine is silently missing
// (the engine itself runs on Node 20: the whole suite runs there). When it is missing, this
// fetches the platform's package from the registry with `npm pack` and unpacks it in place.
import { execFileSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { existsSync, mkdtempSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

const require = createRequire(import.meta.url)
const suffix = process.platform === 'linux' ? '-gnu' : process.platform === 'win32' ? '-msvc' : ''
const platformPackage = `@nomicfoundation/edr-${process.platform}-${process.arch}${suffix}`

function loads(): boolean {
  try {
    execFileSync(process.execPath, ['-e', "require('@nomicfoundation/edr')"], { stdio: 'ignore', cwd: process.cwd() })
    return true
  } catch {
    return false
  }
}

function edrDir(): string {
  let dir = path.dirname(require.resolve('@nomicfoundation/edr'))
  while (!existsSync(path.join(dir, 'package.json'))) dir = path.dirname(dir)
  return dir
}

if (!loads()) {
  const version = (JSON.parse(readFileSync(path.join(edrDir(), 'package.json'), 'utf8')) as { version: string }).version
  const target = path.join(path.dirname(edrDir()), path.basename(platformPackage))
  const scratch = mkdtempSync(path.join(tmpdir(), 'edr-native-'))
  try {
    console.log(`npm skipped ${platformPackage}@${version} (its engines field); fetching it`)
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
    const tarball = execFileSync(npm, ['pack', `${platformPackage}@${version}`, '--pack-destination', scratch, '--silent'], { encoding: 'utf8' }).trim().split('\n').pop()!
    mkdirSync(target, { recursive: true })
    execFileSync('tar', ['-xzf', path.join(scratch, tarball), '-C', target, '--strip-components=1'])
  } catch (error) {
    console.error(`could not fetch ${platformPackage}: ${(error as Error).message}`)
  } finally {
    rmSync(scratch, { recursive: true, force: true })
  }
  if (!loads()) {
    console.error(
      `The devnet's EVM engine does not load on ${process.platform}-${process.arch}. Supported: Linux x64 and arm64 (glibc), ` +
        `macOS x64 and arm64. Install ${platformPackage}@${version}, or run against a chain of your own with RPC_URL and CONTRACTS_FILE.`,
    )
    process.exit(1)
  }
}
