import { isAddressEqual, keccak256, recoverTypedDataAddress, zeroAddress } from 'viem'
import { CHAIN_ID } from '../constants.ts'

/**
 * Proof that the burner wants this redemption: an EIP-712 `RedeemBurn` signed by the burner.
 * Needed on every path where the request is not already signed by the burner: on
 * POST /api/generate always, on the x402 path when the payer is not the burner (a payment the
 * burner signed is proof enough). It binds the burns, the exact image (keccak256 of the
 * decoded bytes), the payer (the zero address on /api/generate) and a deadline, so a bot that
 * sees a fresh burn cannot redeem it with its own picture or its own payment.
 */
export const redeemBurnTypes = {
  RedeemBurn: [
    { name: 'burner', type: 'address' },
    { name: 'burnTxHash', type: 'bytes32' },
    { name: 'devTxHash', type: 'bytes32' },
    { name: 'imageHash', type: 'bytes32' },
    { name: 'payer', type: 'address' },
    { name: 'deadline', type: 'uint256' },
  ],
} as const

/** The domain: the portrait NFT of this deployment (no contract verifies it; it scopes the signature). */
export function redeemBurnDomain(nft: `0x${string}`) {
  return { name: 'MegaChad Portrait', version: '1', chainId: CHAIN_ID, verifyingContract: nft } as const
}

/** keccak256 of the decoded image bytes (not of the base64 text). */
export const imageHashOf = (bytes: Uint8Array): `0x${string}` => keccak256(bytes)

export type RedeemBurnMessage = {
  burner: `0x${string}`
  burnTxHash: `0x${string}`
  devTxHash: `0x${string}`
  imageHash: `0x${string}`
  /** The x402 payer, or the zero address when there is no payment (POST /api/generate). */
  payer: `0x${string}`
  deadline: bigint
}

export type BurnerProofVerdict =
  | { ok: true; by: 'payment' | 'signature' }
  | { ok: false; code: 'INVALID_SIGNATURE' | 'SIGNATURE_EXPIRED'; message: string }

/**
 * Whether the request proves the burner's consent: the payer is the burner, or `signature`
 * recovers to the burner over the RedeemBurn message, before its deadline.
 */
export async function verifyBurnerProof(args: {
  nft: `0x${string}`
  /**
   * `imageHash` may be given as a function: it is called only when a signature must be checked
   * (hashing a portrait of a few hundred KB costs 15-30 ms of the event loop in JavaScript, for
   * nothing when the payer is the burner).
   */
  message: Omit<RedeemBurnMessage, 'deadline' | 'payer' | 'imageHash'> & { payer?: `0x${string}`; imageHash: `0x${string}` | (() => `0x${string}`) }
  signature?: `0x${string}`
  deadline?: number
  nowSeconds: number
}): Promise<BurnerProofVerdict> {
  const { burner } = args.message
  const payer = args.message.payer ?? zeroAddress
  if (args.signature === undefined) {
    if (args.message.payer && isAddressEqual(payer, burner)) return { ok: true, by: 'payment' }
    return {
      ok: false,
      code: 'INVALID_SIGNATURE',
      message: args.message.payer
        ? `The payer ${payer} is not the burner ${burner}: only the burner may redeem its burns. Pay from the burner's wallet, or add burnerSignature and burnerDeadline (an EIP-712 RedeemBurn signed by the burner; see burnerProof in GET /api/x402/looksmaxx).`
        : `Redeeming a burn needs the burner's consent: add burnerSignature and burnerDeadline (an EIP-712 RedeemBurn signed by ${burner} over the burns, the image hash and the zero address as payer; see burnerProof in GET /api/x402/looksmaxx).`,
    }
  }
  if (args.deadline === undefined) return { ok: false, code: 'INVALID_SIGNATURE', message: 'burnerSignature needs burnerDeadline, the deadline it signs.' }
  if (args.deadline <= args.nowSeconds) {
    return { ok: false, code: 'SIGNATURE_EXPIRED', message: `burnerDeadline ${args.deadline} has passed (now ${args.nowSeconds}); sign a new RedeemBurn.` }
  }
  const imageHash = typeof args.message.imageHash === 'function' ? args.message.imageHash() : args.message.imageHash
  const signer = await recoverTypedDataAddress({
    domain: redeemBurnDomain(args.nft),
    types: redeemBurnTypes,
    primaryType: 'RedeemBurn',
    message: { ...args.message, imageHash, payer, deadline: BigInt(args.deadline) },
    signature: args.signature,
  }).catch(() => undefined)
  if (signer && isAddressEqual(signer, burner)) return { ok: true, by: 'signature' }
  return {
    ok: false,
    code: 'INVALID_SIGNATURE',
    message: `burnerSignature does not recover to the burner ${burner} for this RedeemBurn (burns, imageHash ${imageHash} of these image bytes, payer ${payer}, deadline ${args.deadline}).`,
  }
}
