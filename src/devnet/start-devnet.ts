import { randomUUID } from 'node:crypto'
import type { Provider } from '@nomicfoundation/edr'
import { createEdrProvider, DEVNET_CHAIN_ID } from './edr-provider.ts'
import { serveJsonRpc } from './rpc-server.ts'
import { deployAll, BURN_ADDRESS } from './deploy.ts'
import { DEFI_HISTORY_SECONDS } from './deploy-defi.ts'
import { devnetAccount, roles } from '../chain/devnet-accounts.ts'
import type { ContractAddresses } from '../chain/contract-names.ts'

export type DevnetInfo = {
  bootId: string
  chainId: number
  startedAt: string
  deployBlock: number
  agentId: string
  contracts: ContractAddresses
  accounts: {
    deployer: `0x${string}`
    relayer: `0x${string}`
    facilitator: `0x${string}`
    fundWallet: `0x${string}`
    demoHolder: `0x${string}`
    agents: `0x${string}`[]
  }
  burnAddress: `0x${string}`
}

export type Devnet = { url: string; info: DevnetInfo; provider: Provider; close(): Promise<void> }

/**
 * Boots a fresh chain 4326, deploys and seeds the contract suite, and serves JSON-RPC
 * (with `devnet_info`) on host:port. Port 0 picks a free port (tests).
 */
export async function startDevnet(options: { host?: string; port?: number; serviceUrl?: string; log?: (line: string) => void } = {}): Promise<Devnet> {
  const nowSeconds = Math.floor(Date.now() / 1000)
  const provider = await createEdrProvider({ genesisBlockTime: nowSeconds - DEFI_HISTORY_SECONDS })
  const deployment = await deployAll(provider, {
    nowSeconds,
    agentUri: `${options.serviceUrl ?? 'http://127.0.0.1:3000'}/.well-known/agent-registration.json`,
  })
  const info: DevnetInfo = {
    bootId: randomUUID(),
    chainId: Number(DEVNET_CHAIN_ID),
    startedAt: new Date().toISOString(),
    deployBlock: deployment.deployBlock,
    agentId: deployment.agentId,
    contracts: deployment.contracts,
    accounts: {
      deployer: devnetAccount(roles.deployer).address,
      relayer: devnetAccount(roles.relayer).address,
      facilitator: devnetAccount(roles.facilitator).address,
      fundWallet: devnetAccount(roles.fundWallet).address,
      demoHolder: devnetAccount(roles.demoHolder).address,
      agents: roles.agents.map((i) => devnetAccount(i).address),
    },
    burnAddress: BURN_ADDRESS,
  }
  const server = await serveJsonRpc(provider, {
    host: options.host ?? '127.0.0.1',
    port: options.port ?? 8545,
    methods: { devnet_info: () => info },
  })
  options.log?.(`devnet (chain ${info.chainId}) JSON-RPC at ${server.url}`)
  return { url: server.url, info, provider, close: server.close }
}
