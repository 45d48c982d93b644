import { randomUUID } from 'node:crypto'
import type { Provider } from '@nomicfoundation/edr'
import { callProvider, createEdrProvider, DEVNET_CHAIN_ID } from './edr-provider.ts'
import { serveJsonRpc } from './rpc-server.ts'
import { createSubscriptions } from './subscriptions.ts'
import { createSendRawTransactionSync } from './send-sync.ts'
import { createRpcGate, gatedHandler } from './rpc-gate.ts'
import { createSimulateV1, trackImpersonation } from './simulate-v1.ts'
import { readSeedJournal, recordSeed, replaySeed, seedKey, writeSeedJournal, SEED_JOURNAL_FORMAT, type SeedJournal } from './seed-journal.ts'
import { BURN_ADDRESS } from '../chain/constants.ts'
import { devnetAccount, roles } from '../chain/devnet-accounts.ts'
import type { AllContractAddresses } from '../chain/contract-names.ts'

export type DevnetInfo = {
  bootId: string
  chainId: number
  startedAt: string
  deployBlock: number
  agentId: string
  contracts: AllContractAddresses
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

/**
 * `provider` is the engine itself, outside the gate of the JSON-RPC server: a request sent to it
 * while a simulation runs would see (or be reverted with) the simulated blocks. Use `url`.
 */
export type Devnet = { url: string; info: DevnetInfo; provider: Provider; seed: SeedSource; close(): Promise<void> }

/** How the chain got its contracts: replayed from the journal in .cache/devnet, or deployed (and journaled). */
export type SeedSource = 'replayed' | 'deployed'

/**
 * A chain 4326 with the contract suite deployed and seeded, ending at the wall clock. The
 * first boot deploys through viem and journals the seed under .cache/devnet; later boots
 * replay the journal with its clock moved to now (seed-journal.ts), and deploy afresh when the
 * replay does not reproduce it.
 */
async function seededProvider(agentUri: string, log?: (line: string) => void) {
  const key = await seedKey(agentUri)
  const journal = await readSeedJournal(key)
  if (journal) {
    const nowSeconds = Math.floor(Date.now() / 1000)
    const shift = nowSeconds - journal.nowSeconds
    const provider = await createEdrProvider({ genesisBlockTime: journal.genesisTime + shift })
    if (await replaySeed(provider, journal, shift)) return { provider, deployment: journal.deployment, source: 'replayed' as SeedSource }
    log?.('the journaled devnet seed did not replay; deploying afresh')
  }
  // Only a fresh deployment needs viem and the compiled contracts.
  const [{ deployAll }, { DEFI_HISTORY_SECONDS }] = await Promise.all([import('./deploy.ts'), import('./deploy-defi.ts')])
  const nowSeconds = Math.floor(Date.now() / 1000)
  const genesisTime = nowSeconds - DEFI_HISTORY_SECONDS
  const provider = await createEdrProvider({ genesisBlockTime: genesisTime })
  const recorder = await recordSeed(provider)
  const deployment = await deployAll(recorder.handler, { nowSeconds, agentUri })
  const entries = recorder.entries()
  if (entries) {
    const recorded: SeedJournal = { format: SEED_JOURNAL_FORMAT, key, genesisTime, nowSeconds, entries, deployment }
    await writeSeedJournal(recorded).catch((error) => log?.(`could not journal the devnet seed: ${(error as Error).message}`))
  }
  return { provider, deployment, source: 'deployed' as SeedSource }
}

/**
 * Boots a fresh chain 4326, deploys and seeds the contract suite, and serves JSON-RPC
 * (with `devnet_info`) on host:port. Port 0 picks a free port (tests).
 */
export async function startDevnet(options: { host?: string; port?: number; serviceUrl?: string; log?: (line: string) => void } = {}): Promise<Devnet> {
  const agentUri = `${options.serviceUrl ?? 'http://127.0.0.1:3000'}/.well-known/agent-registration.json`
  const { provider, deployment, source } = await seededProvider(agentUri, options.log)
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
  // MegaETH serves eth_sendRawTransactionSync (EIP-7966) and eth_simulateV1; EDR does not, so
  // the devnet adds them. A simulation mines on a snapshot and reverts it: the gate keeps every
  // other request (the sync sends included) out of that window.
  const gate = createRpcGate()
  const served = gatedHandler(provider, gate)
  const impersonated = new Set<string>()
  const sendSync = createSendRawTransactionSync(served)
  const subscriptions = createSubscriptions((method, params) => callProvider(served, method, params))
  const server = await serveJsonRpc(served, {
    host: options.host ?? '127.0.0.1',
    port: options.port ?? 8545,
    methods: { devnet_info: () => info, eth_sendRawTransactionSync: sendSync.method, eth_simulateV1: createSimulateV1(provider, gate, impersonated) },
    observe: (method, params, answer) => trackImpersonation(method, params, answer, impersonated),
    subscriptions,
  })
  options.log?.(`devnet (chain ${info.chainId}) JSON-RPC at ${server.url} (websocket ${server.url.replace(/^http/, 'ws')}), contracts ${source === 'replayed' ? 'replayed from .cache/devnet' : 'deployed and journaled'}`)
  const close = async () => {
    sendSync.close()
    await server.close()
  }
  return { url: server.url, info, provider, seed: source, close }
}
