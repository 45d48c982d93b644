import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createPublicClient, createWalletClient, encodeFunctionData, erc20Abi, getAddress, http, type Hex, type TransactionReceipt } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { useApp } from '../support/harness.ts'
import { testAccount } from '../support/accounts.ts'
import { createAgent } from '../support/agent.ts'
import { startRpcProxy } from '../support/rpc-proxy.ts'
import { createChain, createViemChain } from '../../src/chain/clients.ts'
import { decodeMovements } from '../../src/chain/simulation/decode-simulation.ts'
import { simulatePlan, tokenSymbols } from '../../src/chain/simulation/simulate-plan.ts'
import { buildStakingPlan } from '../../src/chain/builders/build-staking-plan.ts'
import { BURN_ADDRESS } from '../../src/chain/constants.ts'
import { defiRoles } from '../../src/devnet/defi-accounts.ts'

/**
 * Every transaction builder simulates its plan from the sending wallet: each plan is fetched
 * from the service, then sent step by step from that wallet (signed locally, as a wallet does),
 * and each receipt's gasUsed is held against the step's simulated gas (within 10 %) and its
 * Transfer logs against the step's simulated movements. A plan that would fail names the step
 * and the reason: refused (DeFi builders) or marked not executable (the others).
 */
const app = useApp()
const E18 = 10n ** 18n
const TOLERANCE = 0.1
const { proposer, burners, council } = defiRoles
const noTokens = 9 // an agent of DESIGN.md: ETH and USDm, no service tokens, no MG

type Step = { to: Hex; data: Hex; value?: string }

function walletOf(index: number) {
  const chain = createViemChain(app.devnet.url, 'https://megaexplorer.xyz', app.devnet.info.contracts.multicall3)
  return {
    wallet: createWalletClient({ chain, transport: http(app.devnet.url), account: testAccount(index).account }),
    client: createPublicClient({ chain, transport: http(app.devnet.url) }),
  }
}

async function ok(path: string, body?: unknown) {
  const r = body === undefined ? await app.get(path) : await app.post(path, body)
  assert.equal(r.status, 200, `${path}: ${JSON.stringify(r.body)}`)
  return r.body
}

/**
 * A Uniswap V3 swap writes the pool's oracle observation when it is the first of its block
 * timestamp (~20k gas more): a swap simulated in the same second as the previous swap and mined
 * in the next costs that much more than simulated. One second forward puts simulation and
 * mining both after the last swap's second, as a plan asked for later than the last swap is.
 */
const afterLastSwap = () => app.devnet.rpc('evm_increaseTime', [1])

/**
 * Sends the steps from wallet `index`, in order, and holds each receipt against its simulated
 * step: success, gas within 10 %, and the ERC-20 movements equal to the receipt's Transfer logs.
 */
async function sendAndCompare(t: { diagnostic(s: string): void }, label: string, index: number, steps: Step[], simulation: any) {
  assert.equal(simulation.method, 'eth_simulateV1')
  assert.equal(simulation.executable, true, `${label}: ${simulation.reason}`)
  assert.equal(simulation.from, testAccount(index).account.address)
  assert.equal(simulation.steps.length, steps.length)
  const { wallet, client } = walletOf(index)
  const symbols = tokenSymbols(app.devnet.info.contracts)
  const receipts: TransactionReceipt[] = []
  for (const [i, step] of steps.entries()) {
    const hash = await wallet.sendTransaction({ to: step.to, data: step.data, value: BigInt(step.value ?? 0) })
    const receipt = await client.waitForTransactionReceipt({ hash })
    assert.equal(receipt.status, 'success', `${label} step ${i + 1}`)
    const simulated = simulation.steps[i]
    assert.equal(simulated.ok, true)
    const off = (Number(receipt.gasUsed) - simulated.gasUsed) / Number(receipt.gasUsed)
    t.diagnostic(`${label} step ${simulated.step} ${simulated.functionName ?? ''}: simulated ${simulated.gasUsed} gas, mined ${receipt.gasUsed} (${(off * 100).toFixed(2)} %)`)
    assert.ok(Math.abs(off) <= TOLERANCE, `${label} step ${simulated.step}: simulated ${simulated.gasUsed} gas, mined ${receipt.gasUsed}`)
    const mined = decodeMovements(receipt.logs.map((l) => ({ address: l.address, topics: l.topics, data: l.data })), symbols).map((m) => ({ ...m, amount: m.amount.toString() }))
    assert.deepEqual(simulated.movements.filter((m: any) => m.kind === 'erc20'), mined, `${label} step ${simulated.step}: token movements`)
    receipts.push(receipt)
  }
  return receipts
}

/** A DeFi refusal: 400 PLAN_WOULD_REVERT naming the step, its function and the decoded reason. */
async function refusedAt(path: string, step: number, functionName: string, reason: RegExp) {
  const r = await app.get(path)
  assert.equal(r.status, 400, `${path}: ${JSON.stringify(r.body)}`)
  assert.equal(r.body.error.code, 'PLAN_WOULD_REVERT')
  assert.deepEqual([r.body.error.details.reason, r.body.error.details.step, r.body.error.details.functionName], ['would_revert', step, functionName])
  assert.match(r.body.error.details.revertReason, reason)
  assert.match(r.body.error.message, new RegExp(`^Step ${step} \\(${functionName}\\) would revert: `))
  assert.equal(r.body.error.details.simulation.failedStep, step)
  return r.body.error
}

test('looksmaxx plan: swap, burn and fund transfer simulated in order from the wallet, each within 10 % of the mined gas, with its movements', async (t) => {
  const agent = testAccount(5).account.address
  const { token } = app.devnet.info.contracts
  await afterLastSwap()
  const plan = await ok(`/api/agent/looksmaxx?wallet=${agent}`)
  const txs = plan.steps.filter((s: any) => s.transaction && !s.skip).map((s: any) => s.transaction)
  assert.deepEqual(plan.simulation.steps.map((s: any) => [s.step, s.functionName]), [[1, 'exactInputSingle'], [2, 'transfer'], [3, 'transfer']], 'numbered as the plan\'s steps')
  const [swap, burn, fund] = plan.simulation.steps
  assert.deepEqual(swap.movements[0], { kind: 'eth', token: '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE', symbol: 'ETH', from: agent, to: plan.steps[0].transaction.to, amount: plan.steps[0].transaction.value })
  assert.ok(swap.movements.some((m: any) => m.symbol === 'MEGACHAD' && m.to === agent && BigInt(m.amount) >= 225_000n * E18), 'the swap brings the tokens')
  assert.deepEqual(burn.movements, [{ kind: 'erc20', token, symbol: 'MEGACHAD', from: agent, to: getAddress(BURN_ADDRESS), amount: (112_500n * E18).toString() }])
  assert.equal(fund.movements[0].to, plan.steps[2].transaction.args[0])
  await sendAndCompare(t, 'get_looksmaxx_plan', 5, txs, plan.simulation)
})

test('looksmaxx plan for a wallet without ETH: handed out, marked not executable at the swap, with the reason', async () => {
  const empty = privateKeyToAccount(generatePrivateKey()).address
  const plan = await ok(`/api/agent/looksmaxx?wallet=${empty}`)
  assert.equal(plan.steps.length, 4, 'the whole plan is there')
  assert.equal(plan.simulation.executable, false)
  assert.equal(plan.simulation.failedStep, 1)
  assert.match(plan.simulation.reason, /^Step 1 \(exactInputSingle\) cannot be sent: the wallet's ETH does not cover the [\d.]+ ETH this step sends\.$/)
  assert.deepEqual(plan.simulation.steps.slice(1).map((s: any) => s.ok), [null, null], 'later steps depend on the swap: not simulated')
  assert.equal(plan.simulation.balance, '0')
})

test('cross-chain intent: the local plan\'s simulation, numbered after the bridge step', async () => {
  const agent = testAccount(noTokens).account.address
  const intent = await ok(`/api/cross-chain/intent?sourceChain=base&wallet=${agent}`)
  assert.deepEqual(intent.simulation.steps.map((s: any) => s.step), [2, 3, 4])
  assert.deepEqual(intent.steps.filter((s: any) => s.transaction?.data).map((s: any) => s.step), [2, 3, 4])
  assert.equal(intent.simulation.executable, true)
})

test('swap quote with recipient: the exactInputSingle simulated from the recipient', async (t) => {
  const agent = testAccount(6).account.address
  await afterLastSwap()
  const quote = await ok(`/api/x402/quote?ethAmount=0.01&recipient=${agent}`)
  assert.equal(quote.simulation.steps[0].functionName, 'exactInputSingle')
  await sendAndCompare(t, 'get_swap_quote', 6, [{ to: quote.swap.router, data: quote.swap.data, value: quote.swap.value }], quote.simulation)
  assert.equal((await ok('/api/x402/quote?ethAmount=0.01')).simulation, null, 'no recipient, no calldata, no simulation')
})

test('gasless burn: the relayer approval simulated from the burner', async (t) => {
  const agent = testAccount(7).account.address
  const prepared = await ok(`/api/gasless/burn?address=${agent}`)
  assert.equal(prepared.approval.status, 'needed')
  await sendAndCompare(t, 'get_gasless_burn', 7, [prepared.approval.transaction], prepared.simulation)
  assert.equal((await ok(`/api/gasless/burn?address=${agent}`)).simulation, null, 'approved: nothing to send')
})

test('referral registration: registerAgent() simulated from the wallet', async (t) => {
  const agent = await createAgent(app.url, app.devnet.url, 8)
  const registration = await ok('/api/agent/register', { wallet: agent.address, ...(await agent.signRegistration('ReferralAgentRegistration', {})) })
  assert.equal(registration.simulation.steps[0].functionName, 'registerAgent')
  await sendAndCompare(t, 'register_referral_agent', 8, [registration.registration.transaction], registration.simulation)
})

test('staking: approve then stake simulated with the approval carried; a stake the wallet cannot pay is refused at step 2', async (t) => {
  const me = testAccount(proposer).account.address
  const plan = await ok(`/api/defi/staking/tx?action=stake&venue=mogger&amount=1000&address=${me}`)
  assert.deepEqual(plan.executionPlan.map((s: any) => s.functionName), ['approve', 'stake'])
  assert.deepEqual(plan.simulation.steps[1].movements.map((m: any) => [m.symbol, m.from, m.to, m.amount]), [['MEGACHAD', me, app.devnet.info.contracts.moggerStaking, (1000n * E18).toString()]])
  await sendAndCompare(t, 'build_staking_tx', proposer, plan.executionPlan, plan.simulation)
  // A council member holds an NFT (the builder's own check passes) but no MEGACHAD.
  await refusedAt(`/api/defi/staking/tx?action=stake&venue=mogger&amount=1&address=${testAccount(council[0]).account.address}`, 2, 'stake', /^ERC20InsufficientBalance\(sender: 0x[0-9a-fA-F]{40}, balance: 0, needed: 1000000000000000000\)$/)
  assert.equal((await ok('/api/defi/staking/tx?action=stake&venue=mogger&amount=5')).simulation, null, 'without the sender, no simulation')
})

test('amm swap: transfer then swap simulated; a swap from a wallet without tokens is refused at step 1', async (t) => {
  const me = testAccount(burners[0]).account.address
  const plan = await ok(`/api/defi/amm/swap-tx?from=MC&amount=1000&recipient=${me}&address=${me}`)
  assert.deepEqual(plan.simulation.steps[1].movements.map((m: any) => [m.symbol, m.to, m.amount]), [['MEGAGOONER', me, plan.expectedOut]], 'the swap pays the quoted output')
  await sendAndCompare(t, 'build_amm_swap_tx', burners[0], plan.executionPlan, plan.simulation)
  const poor = testAccount(noTokens).account.address
  await refusedAt(`/api/defi/amm/swap-tx?from=MC&amount=1000&recipient=${poor}&address=${poor}`, 1, 'transfer', /^ERC20InsufficientBalance\(/)
})

test('add liquidity: approve, approve, addLiquidity simulated with both approvals carried', async (t) => {
  const me = testAccount(burners[1]).account.address
  const plan = await ok(`/api/defi/amm/add-liquidity-tx?amountMC=1000&amountMG=100&recipient=${me}&address=${me}`)
  assert.deepEqual(plan.executionPlan.map((s: any) => s.functionName), ['approve', 'approve', 'addLiquidity'])
  assert.ok(plan.simulation.steps[2].movements.some((m: any) => m.symbol === 'MC-MG-LP' && m.to === me), 'LP tokens minted to the recipient')
  await sendAndCompare(t, 'build_add_liquidity_tx', burners[1], plan.executionPlan, plan.simulation)
})

test('governance: vote, queue, propose, veto and execute simulated from their senders; a voter without MG is refused, an outsider\'s proposal and veto are marked', async (t) => {
  const { contracts } = app.devnet.info
  const voter = burners[0]
  // Vote on proposal 7 (Active) with the burner's MG.
  const vote = await ok(`/api/defi/governance/vote-tx?proposalId=7&support=for&voter=${testAccount(voter).account.address}`)
  await sendAndCompare(t, 'build_vote_tx', voter, vote.executionPlan, vote.simulation)
  await refusedAt(`/api/defi/governance/vote-tx?proposalId=7&support=for&voter=${testAccount(noTokens).account.address}`, 1, 'castVote', /^No voting power$/)
  await refusedAt(`/api/defi/governance/vote-tx?proposalId=7&support=for&voter=${testAccount(voter).account.address}`, 1, 'castVote', /^Already voted$/)
  // A wallet with MG but no ETH: the vote would succeed, but the wallet cannot pay its gas.
  const fresh = privateKeyToAccount(generatePrivateKey()).address
  const { wallet, client } = walletOf(burners[1])
  await client.waitForTransactionReceipt({ hash: await wallet.writeContract({ address: contracts.secondToken, abi: erc20Abi, functionName: 'transfer', args: [fresh, E18] }) })
  const penniless = await app.get(`/api/defi/governance/vote-tx?proposalId=7&support=for&voter=${fresh}`)
  assert.equal(penniless.status, 400, JSON.stringify(penniless.body))
  assert.deepEqual([penniless.body.error.code, penniless.body.error.details.reason, penniless.body.error.details.simulation.steps[0].ok], ['INSUFFICIENT_BALANCE', 'insufficient_eth', true])
  assert.match(penniless.body.error.message, /^The wallet holds 0 ETH; the plan needs at least [\d.]+ ETH \([\d.]+ ETH of gas at [\d.]+ gwei\)\./)

  // Queue proposal 4 (Succeeded), from anyone.
  const queue = await ok(`/api/defi/governance/queue-tx?proposalId=4&address=${testAccount(noTokens).account.address}`)
  await sendAndCompare(t, 'build_queue_tx', noTokens, queue.executionPlan, queue.simulation)

  // Propose as the top burner; an outsider gets the plan marked not executable.
  const body = { targets: [contracts.secondToken], values: ['0'], calldatas: [encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [contracts.secondToken, 0n] })], description: '[SIGNAL] simulated first' }
  const propose = await ok('/api/defi/governance/propose-tx', { ...body, proposer: testAccount(proposer).account.address })
  await sendAndCompare(t, 'build_propose_tx', proposer, propose.executionPlan, propose.simulation)
  const outsider = await ok('/api/defi/governance/propose-tx', { ...body, proposer: testAccount(noTokens).account.address })
  assert.equal(outsider.eligibility.canPropose, false)
  assert.deepEqual([outsider.simulation.executable, outsider.simulation.failedStep, outsider.simulation.steps[0].ok], [false, 1, false])
  assert.match(outsider.simulation.reason, /^Step 1 \(propose\) would revert: .+\.$/)

  // A council member opens the veto window on proposal 6 (Queued) and votes to keep it.
  const member = council[0]
  const veto = await ok(`/api/defi/governance/veto-tx?proposalId=6&support=no&voter=${testAccount(member).account.address}`)
  assert.deepEqual(veto.executionPlan.map((s: any) => s.functionName), ['startVetoVote', 'castVetoVote'])
  await sendAndCompare(t, 'build_veto_tx', member, veto.executionPlan, veto.simulation)
  const notMember = await ok(`/api/defi/governance/veto-tx?proposalId=6&support=yes&voter=${testAccount(noTokens).account.address}`)
  assert.deepEqual([notMember.isCouncilMember, notMember.simulation.executable, notMember.simulation.failedStep], [false, false, 1])

  // Proposal 6's timelock ends an hour after boot: execute it then.
  await app.devnet.rpc('evm_increaseTime', [3700])
  await app.devnet.rpc('evm_mine')
  const execute = await ok(`/api/defi/governance/execute-tx?proposalId=6&address=${testAccount(noTokens).account.address}`)
  await sendAndCompare(t, 'build_execute_tx', noTokens, execute.executionPlan, execute.simulation)
})

test('an RPC without eth_simulateV1: only step 1 is checked (method eth_call), and the method is not asked again for a while', async () => {
  const proxy = await startRpcProxy(app.devnet.url, { refuseMethods: ['eth_simulateV1'] })
  try {
    const { contracts, accounts } = app.devnet.info
    const chain = createChain({ rpcUrl: proxy.url, publicRpcUrl: proxy.url, explorerUrl: 'https://megaexplorer.xyz', contracts, fundWallet: accounts.fundWallet, facilitator: accounts.facilitator })
    // The council member's stake would revert at step 2, which only eth_simulateV1 can see.
    const me = testAccount(council[1]).account.address
    const plan = buildStakingPlan({ action: 'stake', venue: 'mogger', staking: contracts.moggerStaking!, stakeToken: contracts.token, amount: E18 })
    assert.ok(plan.ok)
    const sim = await simulatePlan(chain, me, plan.plan.map((s) => ({ ...s, value: BigInt(s.value) })))
    assert.deepEqual([sim.method, sim.executable, sim.steps.map((s) => s.ok)], ['eth_call', null, [true, null]])
    assert.ok(sim.steps[0]!.gasUsed! > 21_000n, 'step 1 has its eth_estimateGas figure')
    assert.match(sim.reason!, /^Only the first step was simulated/)
    // A first step that reverts is seen, decoded, and makes the plan not executable: the stake
    // alone, without its approval.
    const unapproved = await simulatePlan(chain, me, [{ ...plan.plan[1]!, value: 0n }])
    assert.deepEqual([unapproved.method, unapproved.executable, unapproved.failedStep], ['eth_call', false, 1])
    assert.equal(unapproved.steps[0]!.revertReason, `ERC20InsufficientAllowance(spender: ${contracts.moggerStaking}, allowance: 0, needed: 1000000000000000000)`)
    assert.equal(proxy.calls().filter((c) => c.method === 'eth_simulateV1').length, 1, 'asked once, not again for a while')
  } finally {
    await proxy.close()
  }
})

test('OpenAPI documents the simulation on every builder\'s answer', async () => {
  const doc = (await ok('/.well-known/openapi.json')) as any
  const builders = ['/api/agent/looksmaxx', '/api/x402/quote', '/api/gasless/burn', '/api/defi/staking/tx', '/api/defi/amm/swap-tx', '/api/defi/amm/add-liquidity-tx', '/api/defi/governance/vote-tx', '/api/defi/governance/queue-tx', '/api/defi/governance/execute-tx', '/api/defi/governance/veto-tx']
  const resolve = (schema: any): any => (schema?.$ref ? resolve(schema.$ref.split('/').slice(1).reduce((o: any, k: string) => o[k], doc)) : schema)
  const hasSimulation = (schema: any): boolean => {
    const s = resolve(schema)
    return Boolean(s?.properties?.simulation) || (s?.anyOf ?? s?.oneOf ?? []).some(hasSimulation)
  }
  for (const path of builders) assert.ok(hasSimulation(doc.paths[path].get.responses['200'].content['application/json'].schema), path)
  for (const path of ['/api/defi/governance/propose-tx', '/api/agent/register']) assert.ok(hasSimulation(doc.paths[path].post.responses['200'].content['application/json'].schema), path)
})
