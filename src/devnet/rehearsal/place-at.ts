import type { Hex } from 'viem'

type Rpc = (method: string, params: unknown[]) => Promise<unknown>

/** Scratch address holding a contract's creation code while its constructor runs elsewhere. */
const SCRATCH = '0x00000000000000000000000000000000c0de0001'
const GAS = '0xf42400' // 16,000,000: Osaka caps a transaction's gas at 2^24

/**
 * Runtime of a stub that DELEGATECALLs `target` with no calldata and returns (or reverts
 * with) whatever it returned: placed at an address, it runs creation code there.
 */
function delegateStub(target: string): Hex {
  // PUSH1 0 ×4, PUSH20 target, GAS, DELEGATECALL, RETURNDATACOPY(0, 0, size),
  // JUMPI(ok, success), REVERT(0, size), ok: RETURN(0, size)
  return `0x600060006000600073${target.slice(2).toLowerCase()}5af43d600060003e602c573d6000fd5b3d6000f3`
}

/**
 * Runs a contract's creation code (bytecode with its encoded constructor arguments) AT
 * `address`, as `from`, and leaves the runtime code it returns there: storage written by the
 * constructor lands at `address`, `address(this)` and `msg.sender` are what a real deployment
 * from `from` to that address would see, and immutables hold their constructor values (an
 * EIP-712 domain separator included). A creation code run by DELEGATECALL reads its
 * constructor arguments from the code being executed (the scratch copy), so they are found.
 * `from` must be an account the node signs for (owned or impersonated).
 */
export async function placeAt(rpc: Rpc, address: string, creationCode: Hex, from: string): Promise<void> {
  await rpc('hardhat_setCode', [SCRATCH, creationCode])
  await rpc('hardhat_setCode', [address, delegateStub(SCRATCH)])
  const tx = { from, to: address, gas: GAS, data: '0x' }
  const runtime = (await rpc('eth_call', [tx, 'latest'])) as Hex
  const hash = (await rpc('eth_sendTransaction', [tx])) as Hex
  const receipt = (await rpc('eth_getTransactionReceipt', [hash])) as { status: string } | null
  if (receipt?.status !== '0x1') throw new Error(`placing a contract at ${address} reverted (${hash})`)
  if (!runtime || runtime === '0x') throw new Error(`the creation code placed at ${address} returned no runtime code`)
  await rpc('hardhat_setCode', [address, runtime])
  await rpc('hardhat_setCode', [SCRATCH, '0x'])
}
