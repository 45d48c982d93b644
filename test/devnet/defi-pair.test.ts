import { test, after } from 'node:test'
import assert from 'node:assert/strict'
import { erc20Abi, getAddress, parseAbi, type Abi } from 'viem'
import { useDefiDevnet, E18, type DefiDevnet } from './defi-support.ts'
import { buildAddLiquidityPlan, buildPairSwapPlan, quotePairSwap } from '../../src/chain/builders/build-pair-plans.ts'
import { readPair } from '../../src/chain/reads/read-pair.ts'
import { createChain } from '../../src/chain/clients.ts'
import { compileContracts } from '../../src/devnet/compile.ts'

const d = useDefiDevnet()

const trader = 6

test('the devnet pair: MC as tokenA, MG as tokenB, seeded reserves, input style "transfer"', async () => {
  const c = d.devnet.info.contracts
  const pair = await readPair(d.chain)
  assert.deepEqual([pair.pair, pair.tokenA, pair.tokenB, pair.style], [c.pair, c.token, c.secondToken, 'transfer'])
  // 20,000,000 MC / 2,000,000 MG from the deployer and 1,000,000 / 100,000 from each of three stakers.
  assert.deepEqual([pair.reserveA, pair.reserveB], [23_000_000n * E18, 2_300_000n * E18])
  assert.equal(await d.balance(c.token, c.pair!), pair.reserveA)
})

test('swap each way from the builder plan: input taken exactly once, output = quote ≥ minOut', async () => {
  const c = d.devnet.info.contracts
  const me = d.address(trader)
  await d.fund(c.token, me, 50_000n * E18)
  await d.fund(c.secondToken, me, 5_000n * E18)
  for (const [tokenIn, tokenOut, amountIn] of [[c.token, c.secondToken, 10_000n * E18], [c.secondToken, c.token, 1_000n * E18]] as const) {
    const pair = await readPair(d.chain, me)
    const result = buildPairSwapPlan({ ...pair, tokenIn, amountIn, recipient: me })
    assert.ok(result.ok)
    assert.deepEqual(result.plan.map((s) => [getAddress(s.to), s.functionName]), [[tokenIn, 'transfer'], [c.pair, 'swap']])
    const quote = result.quote!
    assert.equal(quote.slippageBps, 200n)
    assert.equal(quote.minOut, (quote.amountOut * 9_800n) / 10_000n)
    const [inBefore, outBefore] = [await d.balance(tokenIn, me), await d.balance(tokenOut, me)]
    await d.sendPlan(trader, result)
    const [inAfter, outAfter] = [await d.balance(tokenIn, me), await d.balance(tokenOut, me)]
    assert.equal(inBefore - inAfter, amountIn, 'the input left the wallet once')
    assert.equal(outAfter - outBefore, quote.amountOut)
    assert.ok(outAfter - outBefore >= quote.minOut)
    const after = await readPair(d.chain)
    const aIn = tokenIn === c.token
    assert.equal(aIn ? after.reserveA : after.reserveB, (aIn ? pair.reserveA : pair.reserveB) + amountIn)
    assert.equal(aIn ? after.reserveB : after.reserveA, (aIn ? pair.reserveB : pair.reserveA) - quote.amountOut)
    assert.equal(await d.balance(c.token, c.pair!), after.reserveA, 'nothing left unaccounted in the pair')
  }
})

test('a swap without the input transferred first reverts "Input not transferred" and costs nothing', async () => {
  const c = d.devnet.info.contracts
  const me = d.address(trader)
  const pair = await readPair(d.chain, me)
  // The plan a 'pull' pair would get, sent to this 'transfer' pair by mistake.
  const wrong = buildPairSwapPlan({ ...pair, style: 'pull', tokenIn: c.token, amountIn: 1_000n * E18, recipient: me, allowance: 0n })
  assert.ok(wrong.ok)
  const before = await d.balance(c.token, me)
  await d.send(trader, wrong.plan[0]!)
  assert.equal(await d.revertOf(trader, wrong.plan[1]!), 'Input not transferred')
  assert.equal(await d.balance(c.token, me), before)
})

test('add liquidity from the plan: approve, approve, addLiquidity; LP = min of the two shares', async () => {
  const c = d.devnet.info.contracts
  const me = d.address(trader)
  const pair = await readPair(d.chain, me)
  const amountA = 10_000n * E18
  const amountB = 1_500n * E18
  const plan = buildAddLiquidityPlan({ ...pair, amountA, amountB, recipient: me })
  assert.ok(plan.ok)
  assert.deepEqual(plan.plan.map((s) => s.functionName), ['approve', 'approve', 'addLiquidity'])
  await d.sendPlan(trader, plan)
  const after = await readPair(d.chain, me)
  const expected = [(amountA * pair.lpTotalSupply) / pair.reserveA, (amountB * pair.lpTotalSupply) / pair.reserveB].reduce((a, b) => (a < b ? a : b))
  assert.equal(after.lpBalance! - pair.lpBalance!, expected)
  assert.deepEqual([after.reserveA, after.reserveB], [pair.reserveA + amountA, pair.reserveB + amountB])
})

test('the trap on a pull-style pair (as recorded): the spec plan would strand the input; the builder approves and swaps instead', async () => {
  const c = d.devnet.info.contracts
  const me = d.address(trader)
  const artifact = (await compileContracts()).PullStyleLP!
  const hash = await d.wallet(0).deployContract({ abi: artifact.abi as Abi, bytecode: artifact.bytecode, args: [c.token, c.secondToken] })
  const pullPair = getAddress((await d.client.waitForTransactionReceipt({ hash })).contractAddress!)
  for (const [token, amount] of [[c.token, 1_000_000n * E18], [c.secondToken, 100_000n * E18]] as const) {
    await d.client.waitForTransactionReceipt({ hash: await d.wallet(0).writeContract({ address: token, abi: erc20Abi, functionName: 'approve', args: [pullPair, amount] }) })
  }
  await d.client.waitForTransactionReceipt({
    hash: await d.wallet(0).writeContract({ address: pullPair, abi: [{ type: 'function', name: 'addLiquidity', stateMutability: 'nonpayable', inputs: [{ type: 'uint256' }, { type: 'uint256' }, { type: 'address' }], outputs: [{ type: 'uint256' }] }], functionName: 'addLiquidity', args: [1_000_000n * E18, 100_000n * E18, d.address(0)] }),
  })
  const chain = createChain({
    rpcUrl: d.devnet.url, publicRpcUrl: d.devnet.url, explorerUrl: 'https://megaexplorer.xyz',
    contracts: { ...c, pair: pullPair }, fundWallet: d.devnet.info.accounts.fundWallet, facilitator: d.devnet.info.accounts.facilitator,
  })
  const pair = await readPair(chain, me)
  assert.equal(pair.style, 'pull', 'no INPUT_STYLE(): taken as pulling its input')
  const amountIn = 1_000n * E18

  // The spec's plan (transfer, then swap) on this pair: the transfer is not credited.
  const specPlan = buildPairSwapPlan({ ...pair, style: 'transfer', tokenIn: c.token, amountIn, recipient: me })
  assert.ok(specPlan.ok)
  const start = await d.balance(c.token, me)
  await d.send(trader, specPlan.plan[0]!)
  const erc20Errors = parseAbi(['error ERC20InsufficientAllowance(address spender, uint256 allowance, uint256 needed)'])
  assert.equal(await d.revertOf(trader, specPlan.plan[1]!, erc20Errors), `ERC20InsufficientAllowance(${pullPair},0,${amountIn})`)
  assert.equal(await d.balance(c.token, me), start - amountIn, 'the transferred tokens are gone')
  assert.equal(await d.balance(c.token, pullPair), pair.reserveA + amountIn, 'stranded in the pair, outside its reserves')

  // What the builder hands out for this pair: approve, then swap; the input is taken once.
  const plan = buildPairSwapPlan({ ...pair, tokenIn: c.token, amountIn, recipient: me, allowance: pair.allowanceA })
  assert.ok(plan.ok)
  assert.deepEqual(plan.plan.map((s) => s.functionName), ['approve', 'swap'])
  const quote = quotePairSwap({ amountIn, reserveIn: pair.reserveA, reserveOut: pair.reserveB })
  const [mcBefore, mgBefore] = [await d.balance(c.token, me), await d.balance(c.secondToken, me)]
  await d.sendPlan(trader, plan)
  assert.equal(mcBefore - (await d.balance(c.token, me)), amountIn)
  assert.equal((await d.balance(c.secondToken, me)) - mgBefore, quote.amountOut)
})
