import { createHash } from 'node:crypto'
import { createRequire } from 'node:module'
import { mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import path from 'node:path'

const require = createRequire(import.meta.url)
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
export const contractsDir = path.join(root, 'contracts')
const cacheDir = path.join(root, '.cache', 'contracts')

export type CompiledContract = { abi: unknown[]; bytecode: `0x${string}`; deployedBytecode: `0x${string}` }
export type CompiledContracts = Record<string, CompiledContract>

const settings = {
  optimizer: { enabled: true, runs: 200 },
  evmVersion: 'cancun',
  outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object'] } },
}

/**
 * Compiles `contracts/*.sol` with solc-js. The output is cached under `.cache/contracts`
 * by a hash of the sources, compiler and settings, so only a changed source recompiles.
 */
export async function compileContracts(): Promise<CompiledContracts> {
  const files = (await readdir(contractsDir)).filter((f) => f.endsWith('.sol')).sort()
  const sources = Object.fromEntries(await Promise.all(files.map(async (f) => [f, { content: await readFile(path.join(contractsDir, f), 'utf8') }])))
  const solcVersion = (require('solc/package.json') as { version: string }).version
  const ozVersion = (require('@openzeppelin/contracts/package.json') as { version: string }).version
  const key = createHash('sha256').update(JSON.stringify({ sources, settings, solcVersion, ozVersion })).digest('hex').slice(0, 16)
  const cached = path.join(cacheDir, `${key}.json`)
  try {
    return JSON.parse(await readFile(cached, 'utf8')) as CompiledContracts
  } catch {
    // not compiled yet
  }
  const { default: solc } = await import('solc')
  const input = { language: 'Solidity', sources, settings }
  const findImports = (importPath: string) => {
    try {
      return { contents: require('node:fs').readFileSync(require.resolve(importPath), 'utf8') as string }
    } catch {
      return { error: `not found: ${importPath}` }
    }
  }
  const output = JSON.parse(solc.compile(JSON.stringify(input), { import: findImports }))
  const errors = (output.errors ?? []).filter((e: { severity: string }) => e.severity === 'error')
  if (errors.length) throw new Error(`Solidity compilation failed:\n${errors.map((e: { formattedMessage: string }) => e.formattedMessage).join('\n')}`)
  const compiled: CompiledContracts = {}
  for (const file of files) {
    for (const [name, contract] of Object.entries(output.contracts[file] as Record<string, any>)) {
      compiled[name] = { abi: contract.abi, bytecode: `0x${contract.evm.bytecode.object}`, deployedBytecode: `0x${contract.evm.deployedBytecode.object}` }
    }
  }
  await mkdir(cacheDir, { recursive: true })
  const temp = `${cached}.${process.pid}.tmp`
  await writeFile(temp, JSON.stringify(compiled))
  await rename(temp, cached)
  return compiled
}
