import { test } from 'node:test'
import assert from 'node:assert/strict'
import { parseEthAmount } from './parse-eth-amount.ts'

test('decimal ETH and short integers are ETH; 10+ digit integers are wei', () => {
  assert.equal(parseEthAmount('0.5'), 500_000_000_000_000_000n)
  assert.equal(parseEthAmount('.25'), 250_000_000_000_000_000n)
  assert.equal(parseEthAmount('2'), 2_000_000_000_000_000_000n)
  assert.equal(parseEthAmount('999999999'), 999_999_999n * 10n ** 18n)
  assert.equal(parseEthAmount('1000000000'), 1_000_000_000n)
  assert.equal(parseEthAmount(' 1.000000000000000001 '), 1_000_000_000_000_000_001n)
})

test('anything else is refused with INVALID_AMOUNT', () => {
  for (const bad of ['', 'abc', '-1', '0', '0.0', '1e18', '1,5', '0x10', '1.0000000000000000001', `${10n ** 31n}`]) {
    assert.throws(() => parseEthAmount(bad), (error: any) => error.code === 'INVALID_AMOUNT', bad)
  }
})
