import { describe, test } from 'node:test'
import assert from 'node:assert/strict'
import fc from 'fast-check'
import { createPublicClient, createWalletClient, decodeFunctionData, erc20Abi, getAddress, http, type Address } from 'viem'
import { useApp } from '../support/harness.ts'
import { testAccount } from '../support/accounts.ts'
import { createViemChain } from '../../src/chain/clients.ts'
import { swapRouter02Abi } from '../../src/chain/abis/uniswap.ts'
import { defiAccountAddresses, defiRoles } from '../../src/devnet/defi-accounts.ts'

/**
 * Issue 23: a chat message chose who receives the money. An address merely mentioned in the
 * message ("tx from 0x… said it works") became the recipient of the swap, the pair swap, the
 * liquidity and the looksmaxx plan, and the answer never said so. Money now goes only to the
 * request's wallet or to an explicit "to 0x…", named in the answer's words and `recipient`.
 */
const app = useApp()
const chat = (message: string, wallet?: Address) => app.post('/api/agent/chat', { message, ...(wallet ? { wallet } : {}) })

const attacker = getAddress(`0x${'5a'.repeat(18)}beef`)
const user = testAccount(5).account
const otherWallet = testAccount(6).account.address
const lp = defiAccountAddresses[defiRoles.proposer]

/** Everything of an answer that a wallet would sign or send: its data and its suggested calls. */
const signable = (body: any) => JSON.stringify({ data: body.data, actions: body.actions }).toLowerCase()

/** Operations whose answer is a transaction, or a plan of them, for the wallet in their input. */
const BUILDERS = /^(build_|get_looksmaxx_plan$|get_cross_chain_intent$|get_gasless_burn$|register_referral_agent$)|^get_swap_quote$/

/** Whether anything the answer carries or suggests would pay or build for the attacker (reads about it are fine). */
function paysAttacker(body: any): boolean {
  const is = (v: unknown) => typeof v === 'string' && v.toLowerCase() === attacker.toLowerCase()
  if (is(body.recipient?.address)) return true
  const data = body.data ?? {}
  if (is(data.swap?.params?.recipient) || is(data.recipient) || (body.operationId && BUILDERS.test(body.operationId) && is(data.wallet))) return true
  return body.actions.some((a: any) => BUILDERS.test(a.operationId) && JSON.stringify(a.body).toLowerCase().includes(attacker.toLowerCase()))
}

function clients() {
  const chain = createViemChain(app.devnet.url, 'https://megaexplorer.xyz', '0xcA11bde05977b3631167028862bE2a173976CA11')
  return { publicClient: createPublicClient({ chain, transport: http() }), wallet: createWalletClient({ chain, transport: http(), account: user }) }
}

const coinOf = (owner: Address) =>
  clients().publicClient.readContract({ address: app.devnet.info.contracts.token, abi: erc20Abi, functionName: 'balanceOf', args: [owner] })

/** Sends the chat's swap as a wallet would, untouched, and waits for it. */
async function sendSwap(swap: { router: Address; data: `0x${string}`; value: string }) {
  const { publicClient, wallet } = clients()
  const hash = await wallet.sendTransaction({ to: swap.router, data: swap.data, value: BigInt(swap.value) })
  assert.equal((await publicClient.waitForTransactionReceipt({ hash })).status, 'success')
}

describe('issue 23: an address merely mentioned never receives', () => {
  const injected = `swap 0.01 eth for megachad, tx from ${attacker} said it works`

  test('the swap pays the request\'s wallet; sent as is, the attacker gets nothing', async () => {
    const { status, body } = await chat(injected, user.address)
    assert.equal(status, 200)
    assert.equal(body.intent, 'swap')
    assert.deepEqual(body.recipient, { address: user.address, source: 'wallet' })
    assert.equal(body.data.swap.params.recipient, user.address)
    const call = decodeFunctionData({ abi: swapRouter02Abi, data: body.data.swap.data })
    assert.equal(call.args[0].recipient, user.address, 'the calldata pays the user')
    assert.equal(body.data.swap.value, '10000000000000000')
    assert.ok(!signable(body).includes(attacker.toLowerCase()), 'the attacker is in no call')
    assert.match(body.answer, new RegExp(`sends 0\\.01 ETH to ${body.data.swap.router}`), 'the value and where it goes, in words')
    assert.match(body.answer, new RegExp(`the MEGACHAD go to ${user.address} \\(your wallet\\)`))
    const [userBefore, attackerBefore] = await Promise.all([coinOf(user.address), coinOf(attacker)])
    await sendSwap(body.data.swap)
    assert.ok((await coinOf(user.address)) - userBefore >= BigInt(body.data.swap.params.amountOutMinimum))
    assert.equal(await coinOf(attacker), attackerBefore, 'the attacker received nothing')
  })

  test('without a wallet the mentioned address is not used: no calldata, and the answer says why', async () => {
    const { body } = await chat(injected)
    assert.equal(body.intent, 'swap')
    assert.equal(body.recipient, null)
    assert.equal(body.data.swap.data, undefined, 'no transaction to sign')
    assert.equal(body.data.swap.params.recipient, '<YOUR_ADDRESS>')
    assert.ok(!signable(body).includes(attacker.toLowerCase()))
    assert.match(body.answer, new RegExp(`${attacker} is only mentioned in the message, and an address merely mentioned never receives anything`))
  })

  test('the pair swap, the liquidity, the looksmaxx plan, the burn, the cross-chain plan and staking are built for the wallet only', async () => {
    const messages = [
      `swap 1000 mc for mg, ${attacker} told me to`,
      `add liquidity 1000 mc and 500 mg, copied from ${attacker}`,
      `looksmaxx me, ${attacker} said it works`,
      `burn my tokens, ${attacker} did it yesterday`,
      `looksmaxx from base with 0.3 eth, like ${attacker}`,
      `stake 1000 mc in mogger, same as ${attacker}`,
      `buy 225000 tokens, ${attacker} recommends it`,
      `burn 3 times, ${attacker} did`,
    ]
    for (const message of messages) {
      const { status, body } = await chat(message, user.address)
      assert.equal(status, 200, message)
      assert.ok(!signable(body).includes(attacker.toLowerCase()), `${message}: the attacker is in no call (${body.intent})`)
      assert.ok(body.actions.length > 0 || body.data, `${message}: still answered (${body.answer})`)
    }
    const { body: pair } = await chat(messages[0]!, user.address)
    assert.equal(pair.intent, 'swap_mc_mg')
    assert.equal(pair.actions.find((a: any) => a.operationId === 'build_amm_swap_tx').body.recipient, user.address)
    assert.deepEqual(pair.recipient, { address: user.address, source: 'wallet' })
    assert.match(pair.answer, new RegExp(`output to ${user.address} \\(your wallet\\)`))
    // A liquidity plan is handed out only when it would succeed (simulated from the wallet): the
    // wallet here holds MC and MG, as the DeFi seed's proposer does.
    const { body: liquidity } = await chat(messages[1]!, lp)
    assert.equal(liquidity.intent, 'add_liquidity')
    assert.equal(liquidity.data?.recipient, lp, liquidity.answer)
    assert.match(liquidity.answer, new RegExp(`LP tokens go to ${lp} \\(your wallet\\)`))
    assert.match(liquidity.answer, /sends no ETH to 0x[0-9a-fA-F]{40}/)
    const { body: plan } = await chat(messages[2]!, user.address)
    assert.equal(plan.intent, 'looksmaxx')
    assert.equal(plan.data.wallet, user.address)
    const swapStep = plan.data.steps.find((s: any) => s.action === 'swap')
    assert.equal(decodeFunctionData({ abi: swapRouter02Abi, data: swapStep.transaction.data }).args[0].recipient, user.address)
    assert.match(plan.answer, new RegExp(`Recipient: ${user.address} \\(your wallet\\)`))
    assert.match(plan.answer, new RegExp(`Step 1 \\(swap\\) sends ${swapStep.transaction.value === '0' ? 'no ETH' : '[0-9.]+ ETH'} to ${swapStep.transaction.to}`))
  })

  test('without a wallet, none of them builds a transaction for the mentioned address', async () => {
    for (const message of [`looksmaxx me, ${attacker} said it works`, `add liquidity 1000 mc and 500 mg from ${attacker}`, `swap 1000 mc for mg, ${attacker} told me to`, `gasless burn, ${attacker} uses it`]) {
      const { body } = await chat(message)
      assert.ok(!signable(body).includes(attacker.toLowerCase()), `${message}: ${signable(body)}`)
      assert.equal(body.recipient, null, message)
    }
  })

  test('reads may still be about a mentioned address, but suggest transactions only for the wallet', async () => {
    const holder = app.devnet.info.accounts.demoHolder
    const { body } = await chat(`what does ${holder} hold`, user.address)
    assert.equal(body.intent, 'wallet')
    assert.equal(body.data.address, getAddress(holder), 'the read is about the address named')
    const plan = body.actions.find((a: any) => a.operationId === 'get_looksmaxx_plan')
    assert.equal(plan.body.wallet, user.address, 'the plan suggested is the caller\'s')
    assert.ok(!body.actions.some((a: any) => a.operationId === 'get_looksmaxx_plan' && a.body.wallet === getAddress(holder)))
  })
})

describe('issue 23: the caller\'s own recipient', () => {
  test('"swap 0.01 eth for megachad" with a wallet: the honest request still works', async () => {
    const { body } = await chat('swap 0.01 eth for megachad', user.address)
    assert.equal(body.intent, 'swap')
    assert.deepEqual(body.recipient, { address: user.address, source: 'wallet' })
    assert.equal(decodeFunctionData({ abi: swapRouter02Abi, data: body.data.swap.data }).args[0].recipient, user.address)
  })

  test('"… to <my other wallet>": the other wallet receives, named in the answer and in `recipient`', async () => {
    const { body } = await chat(`swap 0.01 eth for megachad to my other wallet ${otherWallet.toLowerCase()}`, user.address)
    assert.equal(body.intent, 'swap')
    assert.deepEqual(body.recipient, { address: otherWallet, source: 'message' })
    assert.equal(decodeFunctionData({ abi: swapRouter02Abi, data: body.data.swap.data }).args[0].recipient, otherWallet)
    assert.match(body.answer, new RegExp(`the MEGACHAD go to ${otherWallet} \\(named in your message as the recipient, not your wallet ${user.address}\\)`))
    assert.deepEqual(body.entities.recipients, [otherWallet])
    const [userBefore, otherBefore] = await Promise.all([coinOf(user.address), coinOf(otherWallet)])
    await sendSwap(body.data.swap)
    assert.ok((await coinOf(otherWallet)) - otherBefore >= BigInt(body.data.swap.params.amountOutMinimum), 'the other wallet received the tokens')
    assert.equal(await coinOf(user.address), userBefore)
  })

  test('"looksmaxx for 0x…" without a wallet builds the plan for the address named', async () => {
    const { body } = await chat(`looksmaxx for ${otherWallet}`)
    assert.equal(body.intent, 'looksmaxx')
    assert.equal(body.data.wallet, otherWallet)
    assert.deepEqual(body.recipient, { address: otherWallet, source: 'message' })
    assert.match(body.answer, new RegExp(`Recipient: ${otherWallet} \\(named in your message as the recipient\\)`))
  })

  test('two recipients, a .mega name, a contract of the service or the zero address are refused, not guessed', async () => {
    const token = app.devnet.info.contracts.token
    const cases: Array<[string, RegExp]> = [
      [`swap 0.01 eth for megachad to ${otherWallet} or to ${attacker}`, /names 2 recipients/],
      ['swap 0.01 eth for megachad to alice.mega', /alice\.mega is a name/],
      [`swap 0.01 eth for megachad to ${token}`, /contract of this service, not a wallet/],
      [`add liquidity 1000 mc and 500 mg to 0x${'0'.repeat(40)}`, /zero address/],
    ]
    for (const [message, reason] of cases) {
      const { status, body } = await chat(message, user.address)
      assert.equal(status, 200, message)
      assert.equal(body.data, null, message)
      assert.equal(body.recipient, null, message)
      assert.match(body.answer, reason, message)
      assert.ok(!signable(body).includes(attacker.toLowerCase()), message)
    }
  })
})

describe('issue 23: amounts no transaction can carry', () => {
  test('"swap 1e320 gwei", a 330-digit amount and "0.5 wei" answer INVALID_AMOUNT in words, never 500', async () => {
    for (const message of ['swap 1e320 gwei', `swap ${'9'.repeat(330)} gwei`, 'swap 0.5 wei', 'buy 1e999999999999 eth of megachad', 'stake 1e40 mc in mogger']) {
      const { status, body } = await chat(message, user.address)
      assert.equal(status, 200, message)
      assert.equal(body.error.code, 'INVALID_AMOUNT', message)
      assert.equal(body.data, null, message)
      assert.equal(body.actions.length, 0, message)
      assert.match(body.answer, /Not a usable amount/, message)
      assert.ok(body.answer.length < 500, 'a huge amount is not echoed whole')
    }
  })

  test('exponents and wei are exact: "1e18 wei" is 1 ETH, "5e-2 eth" 0.05 ETH', async () => {
    const { body } = await chat('swap 1e18 wei for megachad', user.address)
    assert.equal(body.data.swap.value, '1000000000000000000')
    const { body: small } = await chat('swap 5e-2 eth for megachad', user.address)
    assert.equal(small.data.swap.value, '50000000000000000')
  })
})

describe('issue 23: fuzzed messages', () => {
  test('any message of amounts, units, addresses and recipient words answers 200 (or 400 for a bad body), never 500, and pays an address only when named as recipient', async () => {
    const number = fc.oneof(
      fc.bigInt({ min: 0n, max: 10n ** 60n }).map(String),
      fc.double({ noNaN: false }).map(String),
      fc.tuple(fc.nat({ max: 999 }), fc.integer({ min: -400, max: 400 })).map(([m, e]) => `${m}e${e}`),
      fc.constantFrom('Infinity', '0', '0.0', '1,000', '.5', '9'.repeat(80)),
    )
    const word = fc.constantFrom('swap', 'buy', 'stake', 'unstake', 'burn', 'looksmaxx', 'add liquidity', 'eth', 'wei', 'gwei', 'k', 'million', 'tokens', 'mc', 'mg', 'for', 'from', 'said', 'times', 'in mogger', 'from base', 'vote yes on #1', 'megachad', 'and')
    const part = fc.oneof({ weight: 4, arbitrary: word }, { weight: 3, arbitrary: number }, { weight: 1, arbitrary: fc.constant(attacker) })
    await fc.assert(
      fc.asyncProperty(fc.array(part, { minLength: 1, maxLength: 8 }), fc.boolean(), async (parts, withWallet) => {
        const message = parts.join(' ')
        const { status, body } = await chat(message, withWallet ? user.address : undefined)
        assert.ok(status === 200 || status === 400, `${message}: ${status} ${JSON.stringify(body)}`)
        // "for 0x…" names a recipient outright; any other mention must never be paid.
        if (status === 200 && paysAttacker(body)) assert.deepEqual(body.entities.recipients, [attacker], `${message}: pays a merely mentioned address: ${JSON.stringify(body)}`)
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 60) },
    )
  })
})
