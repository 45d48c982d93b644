import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { pino } from 'pino'
import { useApp, type TestDevnet } from '../support/harness.ts'
import { createAgent, portraitBase64, type Agent } from '../support/agent.ts'
import { takeFirstNonce } from '../support/take-nonce.ts'
import { createTxSender, type TxSender } from '../../src/chain/sender/tx-sender.ts'
import { createBuiltinFacilitator } from '../../src/adapters/facilitator/builtin.ts'
import { eip3009Abi } from '../../src/chain/abis/eip3009.ts'
import { rpcCall } from '../support/rpc.ts'
import { testAccount } from '../support/accounts.ts'

/**
 * A relay or a settlement whose nonce another transaction of the hot key used (the key was
 * used outside the service): the sender marks it dropped. A dropped relay is a failed relay
 * (500 RELAY_FAILED) and the burner can sign again; a dropped settlement is not a settlement:
 * the authorization is still unused on chain, nobody is charged, and the claim is released
 * once the authorization expires.
 */
let devnet: TestDevnet
const app = useApp({ env: { RETRY_BASE_MS: '100', RETRY_MAX_MS: '400', WORKER_POLL_MS: '50', LOOKSMAXX_WAIT_SECONDS: '3' } })
const E18 = 10n ** 18n

/** JSON-RPC on the devnet; an error answer throws (a failed evm_revert fails the test). */
const rpc = (method: string, params: unknown[] = []) => rpcCall(devnet.url, method, params)

before(async () => {
  devnet = app.devnet
})
after(async () => {
  await rpc('evm_setAutomine', [true]).catch(() => {})
})

const loseFirstNonce = (sender: TxSender, addressIndex: number, match: (key: string) => boolean) =>
  takeFirstNonce({ sender, addressIndex, rpcUrl: devnet.url, db: app.ctx.db, chainId: app.ctx.chain.info.chainId, match })

async function signBurn(agent: Agent, typed: any, deadline: number) {
  const message = { burner: typed.message.burner, nonce: BigInt(typed.message.nonce), deadline: BigInt(deadline) }
  const signature = await agent.account.signTypedData({ domain: typed.domain, types: typed.types, primaryType: typed.primaryType, message })
  return { burner: agent.address, deadline, signature }
}

test('a dropped gasless relay answers 500 RELAY_FAILED, burns nothing, and the burner can sign again', async () => {
  const taken = loseFirstNonce(app.ctx.economy.relayer, 1, (key) => key.startsWith('gasless:'))
  const agent = await createAgent(app.url, devnet.url, 7)
  await agent.buyTokens('1')
  let prepared = (await app.get(`/api/gasless/burn?address=${agent.address}`)).body
  await agent.send({ to: prepared.approval.transaction.to, data: prepared.approval.transaction.data })
  prepared = (await app.get(`/api/gasless/burn?address=${agent.address}`)).body
  assert.equal(prepared.ready, true)
  const balance = await agent.coinBalance()

  const body = await signBurn(agent, prepared.signTypedData, Number(prepared.signTypedData.message.deadline))
  const failed = await app.post(`/api/gasless/burn`, body)
  assert.equal(failed.status, 500, JSON.stringify(failed.body))
  assert.equal(failed.body.error.code, 'RELAY_FAILED')
  assert.equal(taken.length, 1)
  assert.equal((await app.ctx.economy.relayer.find(taken[0]!.key))?.status, 'dropped')
  assert.equal(await agent.coinBalance(), balance, 'nothing burned')

  // The same message again is the same (failed) relay, never a second transaction.
  const again = await app.post(`/api/gasless/burn`, body)
  assert.equal(again.status, 500)
  assert.equal(again.body.error.code, 'RELAY_FAILED')

  // The relayer nonce of the burner is still unused: a new signature (a new deadline) relays.
  const fresh = (await app.get(`/api/gasless/burn?address=${agent.address}`)).body
  assert.equal(fresh.signTypedData.message.nonce, prepared.signTypedData.message.nonce, 'the burner nonce was not used')
  const relayed = await app.post(`/api/gasless/burn`, await signBurn(agent, fresh.signTypedData, body.deadline + 60))
  assert.equal(relayed.status, 200, JSON.stringify(relayed.body))
  assert.equal(balance - (await agent.coinBalance()), 225_000n * E18)
})

test('a dropped settlement is not a settlement: the authorization stays unused, nobody is charged, the claim is released once it expires', async () => {
  // The app's facilitator settles through a sender of the facilitator key (account 2) whose
  // first settlement loses its nonce.
  const sender = createTxSender({ db: app.ctx.db, chain: app.ctx.chain, account: testAccount(2).account, log: pino({ level: 'silent' }) })
  const taken = loseFirstNonce(sender, 2, (key) => key.startsWith('settle:'))
  const builtin = createBuiltinFacilitator({ chain: app.ctx.chain, sender })
  const facilitator = app.ctx.pipeline.deps.facilitator
  const original = facilitator.settle
  let settleCalls = 0
  facilitator.settle = async (payment, requirements) => {
    settleCalls++
    return builtin.settle(payment, requirements)
  }
  try {
    const agent = await createAgent(app.url, devnet.url, 8)
    await agent.buyTokens('1')
    const { burnTxHash, devTxHash } = await agent.burn()
    const requirements = (await app.get(`/api/x402/looksmaxx`)).body.accepts[0]
    const usdm = await agent.usdmBalance()
    const paymentPayload = await agent.signPayment(requirements)
    const response = await app.post(`/api/x402/looksmaxx`, {
      burnTxHash, devTxHash, burnerAddress: agent.address, image: await portraitBase64(), paymentPayload,
    })
    // Not settled within the wait: the POST answers 502 with the status link, status settling.
    assert.equal(response.status, 502, JSON.stringify(response.body))
    assert.equal(response.body.error.code, 'UPSTREAM_FAILED')
    assert.equal(response.body.error.details.requestId, response.headers.get('x-request-id'), 'the 502 names its request')
    assert.equal(response.body.error.details.status, 'settling')
    assert.match(response.body.error.message, /nothing has been charged/, 'the client is not told it paid')
    assert.equal(taken.length, 1)
    assert.equal((await sender.find(taken[0]!.key))?.status, 'dropped')
    assert.equal(settleCalls, 1, 'settle was called once, never again after the attempt')
    const auth = paymentPayload.payload.authorization
    const used = await app.ctx.chain.client.readContract({ address: devnet.info.contracts.usdmForwarder, abi: eip3009Abi, functionName: 'authorizationState', args: [auth.from as `0x${string}`, auth.nonce as `0x${string}`] })
    assert.equal(used, false, 'the authorization is unused on chain')
    assert.equal(await agent.usdmBalance(), usdm, 'nobody was charged')
    const { rows } = await app.ctx.db.query<{ status: string }>('SELECT status FROM submissions WHERE lower(burner) = lower($1)', [agent.address])
    assert.deepEqual(rows.map((r) => r.status), ['settling'], 'not recorded as settled')
    assert.equal(await agent.nftBalance(), 0n)

    // Once the authorization expired it can never settle: the claim is released.
    await rpc('evm_increaseTime', [7 * 24 * 3600])
    await rpc('evm_mine')
    let left = rows.length
    for (let i = 0; i < 100 && left > 0; i++) {
      await new Promise((r) => setTimeout(r, 100))
      left = (await app.ctx.db.query('SELECT 1 FROM submissions WHERE lower(burner) = lower($1)', [agent.address])).rows.length
    }
    assert.equal(left, 0, 'the claim was released')
    assert.equal(await agent.usdmBalance(), usdm)
    assert.equal(settleCalls, 1)
  } finally {
    facilitator.settle = original
  }
})
