import { x402Client } from '@x402/fetch'
import { registerExactEvmScheme } from '@x402/evm/exact/client'
import { toClientEvmSigner } from '@x402/evm'
import type { Agent } from './agent.ts'

/**
 * A stock x402 v2 client paying with Permit2: @x402/core's client with @x402/evm's exact
 * scheme and a signer that reads the chain (so it signs an EIP-2612 permit of Permit2 when
 * the allowance is short). Only the devnet USDm is allowed: it is not at MegaUSD's mainnet
 * address, the client's one default asset on eip155:4326, so the forwarder is filtered out.
 */
export function stockPermit2Client(agent: Agent) {
  const client = new x402Client()
  registerExactEvmScheme(client, { signer: toClientEvmSigner(agent.account, agent.publicClient as never) })
  client.setSpendControls({ allowedAssets: [{ network: 'eip155:4326', asset: agent.contracts.usdm! }] })
  return client
}
