import { getAddress } from 'viem'

/**
 * The payload of a `burn` event, one shape whoever reports it: the pipeline when it records a
 * mint, or the indexer when it sees a mint the service did not make. Fields unknown for a mint the service did not
 * make (an image it never pinned) are null rather than missing.
 */
export type BurnEventData = {
  txHash: string
  burner: string
  /** Null for a burn not (yet) redeemed for a portrait. */
  tokenId: string | null
  cid: string | null
  ipfsUrl: string | null
  source: string
  /** Tokens burned, whole tokens, counted as stats' tokensBurned counts them. */
  amount: number | null
  timestamp: string
}

/** Events of one portrait are deduplicated on this key, so it reaches the stream once. */
export const burnEventKey = (tokenId: bigint | string) => `burn:${tokenId}`
/** A burn transaction seen on chain reaches the stream once, on this key. */
export const burnTransferKey = (txHash: string) => `burn-tx:${txHash.toLowerCase()}`

const wholeTokens = (wei: bigint) => Number(wei / 10n ** 18n) + Number(wei % 10n ** 18n) / 1e18

export function burnEventOfPortrait(
  portrait: { burnTxHash: string; burner: string; tokenId: bigint | string; imageCid: string; source: string; mintedAt: Date; burnAmountWei: bigint },
  gatewayUrl: (cid: string) => string,
): BurnEventData {
  return {
    txHash: portrait.burnTxHash,
    burner: portrait.burner,
    tokenId: portrait.tokenId.toString(),
    cid: portrait.imageCid,
    ipfsUrl: gatewayUrl(portrait.imageCid),
    source: portrait.source,
    amount: wholeTokens(portrait.burnAmountWei),
    timestamp: portrait.mintedAt.toISOString(),
  }
}

/** A mint made outside this service (another deployment, a script): only the chain is known. */
export function burnEventOfForeignMint(mint: { txHash: string; to: string; tokenId: bigint; at: Date }): BurnEventData {
  return { txHash: mint.txHash, burner: mint.to, tokenId: mint.tokenId.toString(), cid: null, ipfsUrl: null, source: 'chain', amount: null, timestamp: mint.at.toISOString() }
}

/**
 * A burn seen on chain: a transaction sending service tokens to the dead address (and often
 * the fund wallet). `amountWei`: what it sent to both, and a referral agent's reward;
 * `source`: transfer, gasless (relayed by
 * this service) or referral (through the referral contract).
 */
export function burnEventOfTransfer(burn: { txHash: string; burner: string; amountWei: bigint; source: string; at: Date }): BurnEventData {
  return { txHash: burn.txHash, burner: getAddress(burn.burner), tokenId: null, cid: null, ipfsUrl: null, source: burn.source, amount: wholeTokens(burn.amountWei), timestamp: burn.at.toISOString() }
}
