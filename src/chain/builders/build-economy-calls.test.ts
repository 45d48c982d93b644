import { test } from 'node:test'
import assert from 'node:assert/strict'
import { decodeFunctionData, parseSignature } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { relayerAbi, referralAbi } from '../abis/economy.ts'
import { portraitNftAbi } from '../abis/portrait-nft.ts'
import { buildRelayBurn } from './build-relay-burn.ts'
import { buildRegisterAgent } from './build-register-agent.ts'
import { buildBurnWithReferral } from './build-burn-with-referral.ts'
import { buildMintPortrait } from './build-mint-portrait.ts'

const burner = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

test('relayBurn carries the burner, the deadline and the signature split into v, r, s', async () => {
  const account = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d')
  const signature = await account.signMessage({ message: 'any' })
  const { args, functionName } = decodeFunctionData({ abi: relayerAbi, data: buildRelayBurn({ burner, deadline: 1234n, signature }) })
  const { v, r, s } = parseSignature(signature)
  assert.equal(functionName, 'relayBurn')
  assert.deepEqual(args, [burner, 1234n, Number(v), r, s])
})

test('the referral calls: registerAgent to the referral contract, burnWithReferral naming the referrer', () => {
  const referral = '0x0000000000000000000000000000000000000abc'
  const tx = buildRegisterAgent({ referral, chainId: 4326 })
  assert.deepEqual({ ...tx, data: undefined }, { to: referral, chainId: 4326, value: '0', data: undefined })
  assert.equal(decodeFunctionData({ abi: referralAbi, data: tx.data }).functionName, 'registerAgent')
  assert.deepEqual(decodeFunctionData({ abi: referralAbi, data: buildBurnWithReferral(burner) }).args, [burner])
})

test('mint sends the portrait to the burner with its metadata as an ipfs:// URI', () => {
  const { functionName, args } = decodeFunctionData({ abi: portraitNftAbi, data: buildMintPortrait({ to: burner, metadataCid: 'bafyexample' }) })
  assert.equal(functionName, 'mint')
  assert.deepEqual(args, [burner, 'ipfs://bafyexample'])
})
