import type { CompiledContracts } from './compile.ts'
import { PERMIT2_ADDRESS, X402_EXACT_PERMIT2_PROXY } from '../chain/constants.ts'

/**
 * Permit2 and the x402 exact Permit2 proxy live at fixed addresses on every chain, and stock
 * x402 clients sign for exactly those (Permit2 as the EIP-712 verifyingContract, the proxy as
 * spender): their runtime code is placed there. Neither stand-in has a constructor or an
 * address-dependent immutable, so the code runs as deployed.
 */
export async function placePermit2(rpc: (method: string, params: unknown[]) => Promise<unknown>, compiled: CompiledContracts): Promise<void> {
  await rpc('hardhat_setCode', [PERMIT2_ADDRESS, compiled.Permit2!.deployedBytecode])
  await rpc('hardhat_setCode', [X402_EXACT_PERMIT2_PROXY, compiled.X402ExactPermit2Proxy!.deployedBytecode])
}
