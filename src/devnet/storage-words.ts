import type { Hex } from 'viem'

/** Solidity short-string storage layout: the bytes left-aligned, length × 2 in the last byte. */
export function shortStringSlot(value: string): Hex {
  const bytes = Buffer.from(value, 'utf8')
  const word = Buffer.alloc(32)
  bytes.copy(word)
  word[31] = bytes.length * 2
  return `0x${word.toString('hex')}`
}

/** Integer square root (Newton), for a pool's sqrtPriceX96. */
export function isqrt(n: bigint): bigint {
  if (n < 2n) return n
  let x = n
  let y = (x + 1n) / 2n
  while (y < x) {
    x = y
    y = (x + n / x) / 2n
  }
  return x
}
