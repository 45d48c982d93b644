/**
 * The x402 v1 "exact" payment for EVM: an EIP-3009 TransferWithAuthorization of the amount the
 * 402 asks for, signed by the payer. validAfter sits a minute in the past because the token
 * requires block.timestamp > validAfter.
 */
import { toHex, type LocalAccount } from 'viem'
import { randomBytes } from 'node:crypto'

export type PaymentRequirement = {
  scheme: string
  network: string
  asset: string
  payTo: string
  maxAmountRequired: string
  maxTimeoutSeconds: number
  extra?: { name?: string; version?: string }
}

/** The fields of the authorization; a caller may set any of them (tests sign tampered ones). */
export type AuthorizationFields = { to: `0x${string}`; value: bigint; validAfter: bigint; validBefore: bigint; nonce: `0x${string}` }

export async function signExactPayment(
  account: LocalAccount,
  requirement: PaymentRequirement,
  chainId: number,
  options: Partial<AuthorizationFields> & { now?: number } = {},
) {
  const { now = Math.floor(Date.now() / 1000), ...overrides } = options
  if (requirement.scheme !== 'exact') throw new Error(`unsupported payment scheme ${requirement.scheme}`)
  if (!requirement.extra?.name || !requirement.extra.version) throw new Error('the payment requirements lack the token\'s EIP-712 name and version (extra)')
  const authorization = {
    from: account.address,
    to: requirement.payTo as `0x${string}`,
    value: BigInt(requirement.maxAmountRequired),
    validAfter: BigInt(now - 60),
    validBefore: BigInt(now + Math.min(requirement.maxTimeoutSeconds, 600)),
    nonce: toHex(randomBytes(32)),
    ...overrides,
  }
  const signature = await account.signTypedData({
    domain: { name: requirement.extra.name, version: requirement.extra.version, chainId, verifyingContract: requirement.asset as `0x${string}` },
    types: {
      TransferWithAuthorization: [
        { name: 'from', type: 'address' },
        { name: 'to', type: 'address' },
        { name: 'value', type: 'uint256' },
        { name: 'validAfter', type: 'uint256' },
        { name: 'validBefore', type: 'uint256' },
        { name: 'nonce', type: 'bytes32' },
      ],
    },
    primaryType: 'TransferWithAuthorization',
    message: authorization,
  })
  return {
    x402Version: 1,
    scheme: 'exact',
    network: requirement.network,
    payload: {
      signature,
      authorization: Object.fromEntries(Object.entries(authorization).map(([k, v]) => [k, String(v)])) as Record<keyof typeof authorization, string>,
    },
  }
}
