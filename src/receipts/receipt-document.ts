import { keccak256, toBytes } from 'viem'
import type { Receipts } from './issuer.ts'

/**
 * JSON in the JSON Canonicalization Scheme (RFC 8785) for the values receipts hold (objects,
 * arrays, strings, integers, booleans, null): keys sorted by UTF-16 code units, no whitespace,
 * strings and numbers as ECMAScript serializes them, which is what RFC 8785 specifies.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value)
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined)
  entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`
}

/** The receipt document's bytes: what its URL serves, and what an ERC-8004 feedbackHash commits to. */
export function receiptDocument(receipts: Receipts): string {
  return canonicalJson(receipts)
}

/** keccak256 of the receipt document: the feedbackHash of feedback that cites it (ERC-8004: the hash of the content at feedbackURI). */
export function receiptDocumentHash(receipts: Receipts): `0x${string}` {
  return keccak256(toBytes(receiptDocument(receipts)))
}
