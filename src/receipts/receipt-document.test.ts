import { test } from 'node:test'
import assert from 'node:assert/strict'
import { canonicalize } from '@x402/extensions/offer-receipt'
import { canonicalJson } from './receipt-document.ts'

// The package escapes control characters as \u00XX where RFC 8785 keeps \n, \t...; receipts
// hold none (hashes, addresses, URLs, CIDs, numbers), so the samples leave them out.
test('canonicalJson is RFC 8785 for the values receipts hold (the extension package\'s JCS as oracle)', () => {
  const samples: unknown[] = [
    { b: 1, a: [true, null, 'x'], c: { z: '\u00e9\u2028"\\', y: -0, x: 1e21 } },
    { '\u00e9': 1, e: 2, E: 3, '10': 4, '9': 5 },
    { x402: null, delivery: { format: 'eip712', payload: { issuedAt: 1732712345, amount: '1000000000000000000' }, signature: '0xab' } },
    [],
    'plain',
    12.5,
  ]
  for (const sample of samples) assert.equal(canonicalJson(sample), canonicalize(sample), JSON.stringify(sample))
})
