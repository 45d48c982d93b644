import { decodeFunctionData, erc20Abi, formatEther, formatUnits, getAddress, isAddress, zeroAddress, type Address, type Hex } from 'viem'
import { swapRouter02Abi } from '../chain/abis/uniswap.ts'
import type { Entities } from './extract.ts'

/**
 * Who receives what a transaction built for the caller moves (tokens bought, LP tokens, the
 * NFT): the request's `wallet`, or an address the message names in an explicit recipient
 * phrase ("to 0x…", "for my other wallet 0x…"). Never an address merely mentioned: a message
 * may carry text the caller did not write (a prompt-injected agent forwards it), so only the
 * caller's own field or an unmistakable instruction chooses where money goes.
 */
export type Recipient = { address: Address; source: 'wallet' | 'message' }

/** The recipient of the caller's transactions, or why the message's one cannot be used. */
export type RecipientResolution = { recipient?: Recipient; problem?: string }

/**
 * Resolves the recipient: one explicit recipient phrase wins over the request's wallet (the
 * caller asked for "to <my other wallet>"); two different ones, a `.mega` name, the zero
 * address or a contract of this deployment (whatever is sent there is lost) are refused with
 * a reason instead of guessed.
 */
export function resolveRecipient(entities: Entities, requestWallet: Address | undefined, contractName: (address: Address) => string | undefined): RecipientResolution {
  const named = entities.recipients
  if (named.length > 1) return { problem: `Your message names ${named.length} recipients (${named.join(', ')}): name exactly one ("to 0x…"), or send your wallet as \`wallet\`.` }
  const who = named[0]
  if (who === undefined) return requestWallet ? { recipient: { address: getAddress(requestWallet), source: 'wallet' } } : {}
  if (!isAddress(who, { strict: false })) return { problem: `Name the recipient by its address ("to 0x…"): ${who} is a name, and names are not resolved for payments.` }
  const address = getAddress(who)
  if (address === zeroAddress) return { problem: 'The zero address cannot receive anything: name your wallet ("to 0x…") or send it as `wallet`.' }
  const contract = contractName(address)
  if (contract) return { problem: `${address} is the ${contract} contract of this service, not a wallet: whatever is sent there is lost. Name your wallet ("to 0x…") or send it as \`wallet\`.` }
  return { recipient: { address, source: 'message' } }
}

/** "0x… (your wallet)" or "0x… (named in your message as the recipient, not your wallet 0x…)". */
export function recipientWords(recipient: Recipient, requestWallet?: Address): string {
  if (recipient.source === 'wallet') return `${recipient.address} (your wallet)`
  const other = requestWallet && getAddress(requestWallet) !== recipient.address ? `, not your wallet ${getAddress(requestWallet)}` : ''
  return `${recipient.address} (named in your message as the recipient${other})`
}

/** Why no recipient was taken, for a message that mentions addresses without naming a recipient. */
export function noRecipientHint(entities: Entities): string {
  const mentioned = entities.addresses.filter((a) => !entities.recipients.includes(a))
  const ignored = mentioned.length ? ` ${mentioned.join(', ')} is only mentioned in the message, and an address merely mentioned never receives anything.` : ''
  return `Send your wallet as \`wallet\`, or name the recipient in the message ("to 0x…").${ignored}`
}

/** "0.5 ETH" or "no ETH", from wei. */
export function ethWords(wei: string | bigint | undefined): string {
  const value = typeof wei === 'bigint' ? wei : /^\d+$/.test(wei ?? '') ? BigInt(wei!) : 0n
  return value === 0n ? 'no ETH' : `${formatEther(value)} ETH`
}

/** What a call does with tokens, read from its calldata (what is signed, not what was asked). */
function calldataWords(data: string | undefined, contractName: (address: Address) => string | undefined): string {
  if (!data || !/^0x[0-9a-fA-F]{8}/.test(data)) return ''
  const who = (address: Address) => `${address}${contractName(address) ? ` (${contractName(address)})` : ''}`
  try {
    const call = decodeFunctionData({ abi: erc20Abi, data: data as Hex })
    if (call.functionName === 'transfer') return ` (${fmtTokens(call.args[1])} tokens to ${who(call.args[0])})`
    if (call.functionName === 'approve') return ` (lets ${who(call.args[0])} spend ${fmtTokens(call.args[1])} tokens)`
  } catch {
    // Not an ERC-20 call: the router's swap is tried next.
  }
  try {
    const swap = decodeFunctionData({ abi: swapRouter02Abi, data: data as Hex })
    return ` (the tokens bought go to ${swap.args[0].recipient})`
  } catch {
    return ''
  }
}

const fmtTokens = (wei: bigint) => Number(formatUnits(wei, 18)).toLocaleString('en-US', { maximumFractionDigits: 6 })

/**
 * "sends 0.5 ETH to 0x… (swapRouter), calling exactInputSingle (the tokens bought go to 0x…)":
 * what one transaction pays, to whom, and where its tokens go, read from the transaction itself.
 */
export function txWords(tx: { to?: string; value?: string; functionName?: string; data?: string }, contractName: (address: Address) => string | undefined): string {
  const to = tx.to && isAddress(tx.to, { strict: false }) ? getAddress(tx.to) : undefined
  const name = to ? contractName(to) : undefined
  return `sends ${ethWords(tx.value)} to ${to ?? 'the contract'}${name ? ` (${name})` : ''}${tx.functionName ? `, calling ${tx.functionName}` : ''}${calldataWords(tx.data, contractName)}`
}
