import assert from 'node:assert/strict'
import type { TxSender } from '../../src/chain/sender/tx-sender.ts'

/**
 * Waits until the sender's watch loop has finished `count` more looks at the stored
 * transactions than when called, and fails when it has not within `timeoutMs`: a "nothing
 * changed" check after it proves the loop looked, unlike a fixed sleep.
 */
export async function waitForSweeps(sender: TxSender, count = 2, timeoutMs = 15_000): Promise<void> {
  const target = sender.sweeps() + count
  const deadline = Date.now() + timeoutMs
  while (sender.sweeps() < target && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10))
  assert.ok(sender.sweeps() >= target, `the watch loop finished ${count} looks within ${timeoutMs} ms`)
}
