import type { Agent } from './agent.ts'

/**
 * Data builders: the request bodies a user sends, built from an agent's real burns and
 * signatures, with overrides for the one field a test is about.
 */

export type Burn = { burnTxHash: `0x${string}`; devTxHash: `0x${string}` }

/** The two burn transfers of `agent` (112,500 + 112,500 tokens; it must hold 225,000). */
export function burnOf(agent: Agent): Promise<Burn> {
  return agent.burn()
}

/**
 * A POST /api/x402/looksmaxx body: the burns, the burner, the portrait and an x402 payment
 * signed by `agent` for `requirements` (the first `accepts` entry of the 402). `payment`
 * changes the signed authorization (value, validBefore, nonce, ...); `overrides` any field.
 */
export async function looksmaxxBody(
  agent: Agent,
  burn: Burn,
  options: { image: string; requirements: any; payment?: Parameters<Agent['signPayment']>[1]; overrides?: Record<string, unknown> },
): Promise<Record<string, unknown>> {
  return {
    burnTxHash: burn.burnTxHash,
    devTxHash: burn.devTxHash,
    burnerAddress: agent.address,
    image: options.image,
    paymentPayload: await agent.signPayment(options.requirements, options.payment),
    ...options.overrides,
  }
}

/** A POST /api/generate body: the burns, the portrait and the burner's RedeemBurn consent. */
export async function generateBody(agent: Agent, burn: Burn, options: { image: string; overrides?: Record<string, unknown> }): Promise<Record<string, unknown>> {
  return {
    burnTxHash: burn.burnTxHash,
    devTxHash: burn.devTxHash,
    burnerAddress: agent.address,
    image: options.image,
    ...(await agent.signRedeem({ ...burn, image: options.image })),
    ...options.overrides,
  }
}

/**
 * The submission's status once it is minted, read with `read` (an app's inject or a socket)
 * every `intervalMs`, at most `tries` times; the last status otherwise (the caller asserts).
 */
export async function statusOnceMinted(read: () => Promise<any>, options: { tries?: number; intervalMs?: number } = {}): Promise<any> {
  let status: any
  for (let i = 0; i < (options.tries ?? 150); i++) {
    status = await read()
    if (status.status === 'minted') break
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 200))
  }
  return status
}
