import { test } from 'node:test'
import assert from 'node:assert/strict'
import { toEventSelector, toFunctionSelector, type Abi, type AbiEvent, type AbiFunction } from 'viem'
import { compileContracts } from '../../src/devnet/compile.ts'
import { moggerStakingAbi } from '../../src/chain/abis/mogger-staking.ts'
import { jesterStakingAbi } from '../../src/chain/abis/jester-staking.ts'
import { pairAbi } from '../../src/chain/abis/pair.ts'
import { rankingAbi } from '../../src/chain/abis/ranking.ts'
import { governanceAbi } from '../../src/chain/abis/governance.ts'
import { vetoCouncilAbi } from '../../src/chain/abis/veto-council.ts'
import { circuitBreakerAbi } from '../../src/chain/abis/circuit-breaker.ts'
import { emissionControllerAbi } from '../../src/chain/abis/emission-controller.ts'

const pairs: [string, Abi][] = [
  ['MoggerStakingV2', moggerStakingAbi], ['JesterGoonerV3', jesterStakingAbi], ['MegaChadLP', pairAbi], ['Framemogger', rankingAbi],
  ['Jestermogger', governanceAbi], ['NFTVetoCouncil', vetoCouncilAbi], ['CircuitBreaker', circuitBreakerAbi], ['EmissionController', emissionControllerAbi],
]

const signatures = (abi: Abi) =>
  new Map(
    abi
      .filter((e): e is AbiFunction | AbiEvent => e.type === 'function' || e.type === 'event')
      .map((e) => [e.type === 'function' ? toFunctionSelector(e) : toEventSelector(e), `${e.type} ${e.name} ${e.type === 'function' ? e.stateMutability : ''}`]),
  )

test('every function and event of the service ABIs exists on the devnet contract, with the same mutability', async () => {
  const compiled = await compileContracts()
  for (const [name, abi] of pairs) {
    const onChain = signatures(compiled[name]!.abi as Abi)
    for (const [selector, what] of signatures(abi)) assert.equal(onChain.get(selector), what, `${name}: ${what} (${selector})`)
  }
})

test('selectors and topics recorded in docs/contributors/contracts.md match the devnet contracts', () => {
  const recorded: [Abi, string, string][] = [
    [pairAbi, 'swap', '0x6d9a640a'], [pairAbi, 'addLiquidity', '0x87b21efc'], [pairAbi, 'getReserves', '0x0902f1ac'],
    [moggerStakingAbi, 'getGlobalStats', '0x6b4169c3'], [moggerStakingAbi, 'getStakerInfo', '0x733bdef0'], [moggerStakingAbi, 'claimRewards', '0x372500ab'],
    [jesterStakingAbi, 'stake', '0x7b0472f0'], [jesterStakingAbi, 'getUserInfo', '0x1069f3b5'], [jesterStakingAbi, 'getPoolInfo', '0x2f380b35'],
    [rankingAbi, 'canPropose', '0x42b4632e'], [rankingAbi, 'getWeekTop3', '0x99c8ab33'], [rankingAbi, 'sendMegachad', '0xf2bd743b'],
    [governanceAbi, 'propose', '0x7d5e81e2'], [governanceAbi, 'castVote', '0x56781388'], [governanceAbi, 'getProposal', '0xc7f758a8'], [governanceAbi, 'GRACE_PERIOD', '0xc1a287e2'],
    [vetoCouncilAbi, 'startVetoVote', '0x53ce0643'], [vetoCouncilAbi, 'castVetoVote', '0x88848510'], [vetoCouncilAbi, 'getVetoVote', '0x0530b9e5'],
    [circuitBreakerAbi, 'getPauseStatus', '0x1d9023cb'],
  ]
  for (const [abi, name, selector] of recorded) {
    const item = abi.find((e) => e.type === 'function' && e.name === name) as AbiFunction
    assert.equal(toFunctionSelector(item), selector, name)
  }
  const topics: [Abi, string, string][] = [
    [moggerStakingAbi, 'Staked', '0x9e71bc8eea02a63969f509818f2dafb9254532904319f9dbda79b67bd34a5f3d'],
    [jesterStakingAbi, 'Staked', '0x1449c6dd7851abc30abf37f57715f492010519147cc2652fbc38202c18a6ee90'],
    [rankingAbi, 'MegachadSent', '0xeabd541a49161c77f23668e5b9aa64a37186a489dcd74faaaa635201ac2400b6'],
    [governanceAbi, 'ProposalCreated', '0x5444434d5b790d8f03dbb52e68d7767aa90babe08874e110f4442e52fa68b24d'],
    [governanceAbi, 'VoteCast', '0x2c9deb38f462962eadbd85a9d3a4120503ee091f1582eaaa10aa8c6797651d29'],
    [governanceAbi, 'ProposalQueued', '0x9a2e42fd6722813d69113e7d0079d3d940171428df7373df9c7f7617cfda2892'],
    [pairAbi, 'Swap', '0x49926bbebe8474393f434dfa4f78694c0923efa07d19f2284518bfabd06eb737'],
    [vetoCouncilAbi, 'VetoExecuted', '0x6c580d34c26848709f41fd966646f2cd97c685bb8c9aa3f7a0470df170787db0'],
  ]
  for (const [abi, name, topic] of topics) {
    const item = abi.find((e) => e.type === 'event' && e.name === name) as AbiEvent
    assert.equal(toEventSelector(item), topic, name)
  }
})

test('the service-protocol catalogue names functions and events the DeFi contracts have', async () => {
  const { contractCatalog } = await import('../../src/chain/contract-catalog.ts')
  const compiled = await compileContracts()
  const byName = {
    moggerStaking: 'MoggerStakingV2', jesterStaking: 'JesterGoonerV3', pair: 'MegaChadLP', governance: 'Jestermogger',
    vetoCouncil: 'NFTVetoCouncil', ranking: 'Framemogger', emissionController: 'EmissionController', circuitBreaker: 'CircuitBreaker',
  } as const
  for (const [key, contract] of Object.entries(byName)) {
    const abi = compiled[contract]!.abi as Abi
    const functions = new Set(abi.filter((e): e is AbiFunction => e.type === 'function').map((f) => `${f.name}(${f.inputs.map(typeOf).join(',')})`))
    const events = new Set(abi.filter((e): e is AbiEvent => e.type === 'event').map((e) => `${e.name}(${e.inputs.map((i) => `${typeOf(i)}${i.indexed ? ' indexed' : ''}`).join(',')})`))
    const facts = contractCatalog[key as keyof typeof byName]
    for (const f of facts.keyFunctions) assert.ok(functions.has(f), `${key}: ${f}`)
    for (const e of facts.events ?? []) assert.ok(events.has(e), `${key}: ${e}`)
  }
})

function typeOf(p: { type: string; components?: readonly { type: string }[] }): string {
  if (p.type.startsWith('tuple')) return `(${(p.components ?? []).map((c) => typeOf(c as never)).join(',')})${p.type.slice(5)}`
  return p.type
}
