import { readFile } from 'node:fs/promises'
import { getAddress } from 'viem'
import { z } from 'zod'
import { coreContractNames, optionalContractNames, type ContractAddresses } from './contract-names.ts'
import { AppError } from '../errors/app-error.ts'
import { CHAIN_ID } from './constants.ts'
import { StartupError, type Config } from '../config/load.ts'

const addressField = z.string().regex(/^0x[0-9a-fA-F]{40}$/).transform((a) => getAddress(a))

/** An optional contract may be missing or null (a deployment file says so explicitly). */
const optionalAddress = addressField.nullable().optional().transform((a) => a ?? undefined)

const contractsSchema = z.object({
  ...Object.fromEntries(coreContractNames.map((name) => [name, addressField])),
  ...Object.fromEntries(optionalContractNames.map((name) => [name, optionalAddress])),
}) as unknown as z.ZodType<ContractAddresses>

/** Where the service's contracts live and who the fixed counterparties are. */
export type Deployment = {
  contracts: ContractAddresses
  fundWallet: `0x${string}`
  facilitator: `0x${string}`
  /** ERC-8004 agent ID of the service, when registered. */
  agentId?: string
  /** Identifies one boot of the embedded devnet; absent on a real chain. */
  devnet?: { bootId: string; deployBlock: number; accounts: Record<string, unknown> }
}

const devnetInfoSchema = z.object({
  bootId: z.string(),
  chainId: z.number(),
  deployBlock: z.number(),
  agentId: z.string().optional(),
  contracts: contractsSchema,
  accounts: z.object({ fundWallet: addressField, facilitator: addressField }).passthrough(),
})

/** Reads the deployment from the embedded devnet's `devnet_info` RPC method. */
export async function readDevnetDeployment(rpcUrl: string): Promise<Deployment> {
  let response: Response
  try {
    response = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'devnet_info', params: [] }),
      signal: AbortSignal.timeout(5_000),
    })
  } catch (cause) {
    throw new AppError('UPSTREAM_FAILED', 'The devnet RPC did not answer.', { cause, retryable: true })
  }
  const body = (await response.json()) as { result?: unknown; error?: unknown }
  if (!body.result) {
    throw new AppError('UPSTREAM_FAILED', 'The RPC has no devnet_info method: not the embedded devnet.', {
      cause: body.error,
    })
  }
  const info = devnetInfoSchema.parse(body.result)
  return {
    contracts: info.contracts,
    fundWallet: info.accounts.fundWallet,
    facilitator: info.accounts.facilitator,
    agentId: info.agentId,
    devnet: { bootId: info.bootId, deployBlock: info.deployBlock, accounts: info.accounts },
  }
}

const fileSchema = z.object({
  // The service speaks chain 4326 only: a profile of another chain is refused, not half used.
  network: z.object({ chainId: z.literal(CHAIN_ID).optional() }).passthrough().optional(),
  contracts: contractsSchema,
  fundWallet: addressField,
  facilitator: addressField,
  agentId: z.union([z.string(), z.number()]).transform(String).optional(),
})

/**
 * Reads a production deployment file: `{ contracts: {name: address}, fundWallet, facilitator }`
 * (deploy/megaeth.json is one; its `network` section is read by the configuration). FUND_WALLET,
 * FACILITATOR_ADDRESS and CONTRACT_ADDRESSES, when set, override the file.
 */
export async function readDeploymentFile(
  path: string,
  overrides: { fundWallet?: string; facilitator?: string } = {},
): Promise<Deployment> {
  const raw = JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>
  return fileSchema.parse({
    ...raw,
    ...(overrides.fundWallet ? { fundWallet: overrides.fundWallet } : {}),
    ...(overrides.facilitator ? { facilitator: overrides.facilitator } : {}),
  })
}

/**
 * The deployment with CONTRACT_ADDRESSES applied: each named contract replaced, or removed
 * (null) when it is optional. A name the registry does not know, or a core contract removed, is
 * refused with a message naming it.
 */
export function withContractOverrides(deployment: Deployment, overrides: Record<string, string | null> | undefined): Deployment {
  if (!overrides || Object.keys(overrides).length === 0) return deployment
  const core = new Set<string>(coreContractNames)
  const optional = new Set<string>(optionalContractNames)
  const contracts: Record<string, string | undefined> = { ...deployment.contracts }
  for (const [name, address] of Object.entries(overrides)) {
    if (!core.has(name) && !optional.has(name)) throw new Error(`${JSON.stringify(name)} is no contract name; expected one of ${[...core, ...optional].join(', ')}`)
    if (address === null && core.has(name)) throw new Error(`${name} cannot be removed: the service needs it (only ${[...optional].join(', ')} may be none)`)
    contracts[name] = address === null ? undefined : getAddress(address)
  }
  return { ...deployment, contracts: contracts as ContractAddresses }
}

/**
 * The deployment the configuration names: CONTRACTS_FILE with CONTRACT_ADDRESSES applied, or
 * undefined when there is no file (the embedded devnet tells its own). A file that cannot be
 * used is a StartupError naming the variable and why; `npm start` reads it before loading the
 * service's modules, so a mistyped path is refused at once.
 */
export async function readConfiguredDeployment(config: Pick<Config, 'CONTRACTS_FILE' | 'FUND_WALLET' | 'FACILITATOR_ADDRESS' | 'CONTRACT_ADDRESSES'>): Promise<Deployment | undefined> {
  if (!config.CONTRACTS_FILE) return undefined
  const read = await readDeploymentFile(config.CONTRACTS_FILE, { fundWallet: config.FUND_WALLET, facilitator: config.FACILITATOR_ADDRESS }).catch((cause) => {
    throw new StartupError('CONTRACTS_FILE', `cannot use ${config.CONTRACTS_FILE}: ${describeFileProblem(cause)}`, { cause })
  })
  return withOverridesNamed(read, config.CONTRACT_ADDRESSES)
}

/** withContractOverrides, its refusal a StartupError naming CONTRACT_ADDRESSES. */
export function withOverridesNamed(deployment: Deployment, overrides: Record<string, string | null> | undefined): Deployment {
  try {
    return withContractOverrides(deployment, overrides)
  } catch (cause) {
    throw new StartupError('CONTRACT_ADDRESSES', (cause as Error).message, { cause })
  }
}

/** What is wrong with a deployment file, in a line: missing, not JSON, or which fields are off. */
function describeFileProblem(error: unknown): string {
  const e = error as NodeJS.ErrnoException & { issues?: Array<{ path: PropertyKey[]; message: string }> }
  if (e.code === 'ENOENT') return 'no such file'
  if (e.code === 'EACCES') return 'not readable'
  if (e.code === 'EISDIR') return 'a directory, not a file'
  if (error instanceof SyntaxError) return `not JSON (${e.message})`
  if (Array.isArray(e.issues)) {
    const fields = e.issues.slice(0, 5).map((issue) => `${issue.path.map(String).join('.') || '(top)'} ${issue.message}`)
    return `not a deployment file ({ "contracts": { "<name>": "0x…" }, "fundWallet": "0x…", "facilitator": "0x…" }): ${fields.join('; ')}${e.issues.length > 5 ? `; and ${e.issues.length - 5} more` : ''}`
  }
  return e.message
}
