import { toHex } from 'viem'
import { createEdrProvider } from '../edr-provider.ts'
import { serveJsonRpc } from '../rpc-server.ts'
import { createSendRawTransactionSync } from '../send-sync.ts'
import { createRpcGate, gatedHandler } from '../rpc-gate.ts'
import { createSimulateV1, trackImpersonation } from '../simulate-v1.ts'
import { createSubscriptions } from '../subscriptions.ts'
import { callProvider } from '../edr-provider.ts'
import { BURN_ADDRESS, BURN_HALF_WEI } from '../../chain/constants.ts'
import { deployAtMainnet, rpcOf, type RehearsalDeployment } from './deploy-at-mainnet.ts'
import { fillHistory, type FilledHistory, type HistoryScale } from './fill-history.ts'
import { MAINNET } from './mainnet-addresses.ts'

export type RehearsalInfo = { deployment: RehearsalDeployment; history: Omit<FilledHistory, 'wallets'>; deployMs: number; readyMs: number }
export type RehearsalDevnet = { url: string; info: RehearsalInfo; close(): Promise<void> }

/**
 * A chain 4326 holding the service's contracts at their mainnet addresses with a history of
 * `scale`, ending at the wall clock, served as JSON-RPC (with MegaETH's
 * eth_sendRawTransactionSync, eth_simulateV1 and websocket newHeads as the devnet serves
 * them, and `rehearsal_info`). EDR 0.22 has no state dump, so nothing is cached: the fill is redone on
 * every start (its time is reported).
 */
export async function startRehearsalDevnet(options: { scale: HistoryScale; host?: string; port?: number; serviceUrl?: string; log?: (line: string) => void }): Promise<RehearsalDevnet> {
  const started = performance.now()
  const nowSeconds = Math.floor(Date.now() / 1000)
  // The history's one-second blocks end at about now; the deployment precedes them.
  const provider = await createEdrProvider({ genesisBlockTime: nowSeconds - options.scale.blocks - 3600 })
  const rpc = rpcOf(provider)
  const agentUri = `${options.serviceUrl ?? 'http://127.0.0.1:3000'}/.well-known/agent-registration.json`
  const deployment = await deployAtMainnet(provider, { agentUri })
  const deployMs = Math.round(performance.now() - started)
  options.log?.(`rehearsal devnet: contracts at their mainnet addresses in ${deployMs} ms; filling a history of ${JSON.stringify(options.scale)}`)
  const { wallets: _wallets, ...history } = await fillHistory(rpc, options.scale, options)
  // What the history should have left on chain, read back.
  const call = async (to: string, data: string) => BigInt((await rpc('eth_call', [{ to, data }, 'latest'])) as string)
  const dead = await call(MAINNET.token, `0x70a08231${BURN_ADDRESS.slice(2).toLowerCase().padStart(64, '0')}`)
  if (dead < BigInt(options.scale.burns) * BURN_HALF_WEI) throw new Error(`the history left ${dead} at the dead address, expected at least ${options.scale.burns} burns`)
  const minted = await call(MAINNET.nft, '0xa2309ff8') // totalMinted()
  if (minted !== BigInt(options.scale.nfts)) throw new Error(`the history minted ${minted} portraits, expected ${options.scale.nfts}`)
  // One block stamped now: later blocks follow real time (x402 and relay deadlines are signed against it).
  await rpc('evm_setNextBlockTimestamp', [toHex(Math.max(Math.floor(Date.now() / 1000), Number(((await rpc('eth_getBlockByNumber', ['latest', false])) as { timestamp: string }).timestamp) + 1))])
  await rpc('evm_mine', [])
  history.head = Number(await rpc('eth_blockNumber', []))

  const info: RehearsalInfo = { deployment, history, deployMs, readyMs: 0 }
  const gate = createRpcGate()
  const served = gatedHandler(provider, gate)
  const impersonated = new Set<string>()
  const sendSync = createSendRawTransactionSync(served)
  const server = await serveJsonRpc(served, {
    host: options.host ?? '127.0.0.1',
    port: options.port ?? 0,
    methods: { rehearsal_info: () => info, eth_sendRawTransactionSync: sendSync.method, eth_simulateV1: createSimulateV1(provider, gate, impersonated) },
    observe: (method, params, answer) => trackImpersonation(method, params, answer, impersonated),
    // eth_subscribe("newHeads") on the websocket endpoint, as MegaETH's wss:// serves it.
    subscriptions: createSubscriptions((method, params) => callProvider(served, method, params)),
  })
  info.readyMs = Math.round(performance.now() - started)
  options.log?.(`rehearsal devnet ready in ${info.readyMs} ms at ${server.url}: head ${history.head}, ${history.transactions} history transactions in ${history.fillMs} ms`)
  return {
    url: server.url,
    info,
    async close() {
      sendSync.close()
      await server.close()
    },
  }
}
