import { test } from 'node:test'
import assert from 'node:assert/strict'
import { toEventSelector, toEventSignature, toFunctionSignature, type Abi, type AbiEvent, type AbiFunction } from 'viem'
import { compileContracts } from '../../src/devnet/compile.ts'
import { identityRegistryAbi, reputationRegistryAbi } from '../../src/chain/abis/registries.ts'
import { WATCHED_EVENTS } from '../../src/indexer/decode-logs.ts'

/**
 * The ERC-8004 v1 interface as deployed at 0x8004A169… and 0x8004BAa1… on chain 4326 and other
 * mainnets (erc-8004/erc-8004-contracts, abis/*.json, getVersion() "2.0.0"), written out as
 * `signature mutability outputs`; the proxy's admin functions (initialize, upgrade, ownership)
 * are left out. Not the Oct-2025 draft (uint8 score, feedbackAuth, bytes32 tags).
 */
const V1 = {
  IdentityRegistry: [
    'function register() nonpayable uint256',
    'function register(string) nonpayable uint256',
    'function register(string,(string,bytes)[]) nonpayable uint256',
    'function setAgentURI(uint256,string) nonpayable ',
    'function getMetadata(uint256,string) view bytes',
    'function setMetadata(uint256,string,bytes) nonpayable ',
    'function getAgentWallet(uint256) view address',
    'function setAgentWallet(uint256,address,uint256,bytes) nonpayable ',
    'function unsetAgentWallet(uint256) nonpayable ',
    'function isAuthorizedOrOwner(address,uint256) view bool',
    'function getVersion() pure string',
    'function ownerOf(uint256) view address',
    'function tokenURI(uint256) view string',
    'function balanceOf(address) view uint256',
    'event Registered(uint256,string,address)',
    'event MetadataSet(uint256,string,string,bytes)',
    'event URIUpdated(uint256,string,address)',
  ],
  ReputationRegistry: [
    'function giveFeedback(uint256,int128,uint8,string,string,string,string,bytes32) nonpayable ',
    'function revokeFeedback(uint256,uint64) nonpayable ',
    'function appendResponse(uint256,address,uint64,string,bytes32) nonpayable ',
    'function getSummary(uint256,address[],string,string) view uint64,int128,uint8',
    'function readFeedback(uint256,address,uint64) view int128,uint8,string,string,bool',
    'function readAllFeedback(uint256,address[],string,string,bool) view address[],uint64[],int128[],uint8[],string[],string[],bool[]',
    'function getClients(uint256) view address[]',
    'function getLastIndex(uint256,address) view uint64',
    'function getResponseCount(uint256,address,uint64,address[]) view uint64',
    'function getIdentityRegistry() view address',
    'function getVersion() pure string',
    'event NewFeedback(uint256,address,uint64,int128,uint8,string,string,string,string,string,bytes32)',
    'event FeedbackRevoked(uint256,address,uint64)',
    'event ResponseAppended(uint256,address,uint64,address,string,bytes32)',
  ],
}

function described(abi: Abi): Set<string> {
  return new Set(
    abi.flatMap((e) => {
      if (e.type === 'function') return [`function ${toFunctionSignature(e as AbiFunction)} ${(e as AbiFunction).stateMutability} ${(e as AbiFunction).outputs.map((o) => o.type).join(',')}`]
      if (e.type === 'event') return [`event ${toEventSignature(e as AbiEvent)}`]
      return []
    }),
  )
}

test('the devnet stand-ins implement the deployed ERC-8004 v1 interface', async () => {
  const compiled = await compileContracts()
  for (const [name, entries] of Object.entries(V1)) {
    const onChain = described(compiled[name]!.abi as Abi)
    for (const entry of entries) assert.ok(onChain.has(entry), `${name}: ${entry}`)
  }
})

test('the service reads and builds with the v1 interface only', () => {
  for (const [name, abi] of [['IdentityRegistry', identityRegistryAbi], ['ReputationRegistry', reputationRegistryAbi]] as const) {
    const v1 = new Set(V1[name])
    for (const entry of described(abi as Abi)) assert.ok(v1.has(entry), `${name}: ${entry} is not in the deployed v1 interface`)
  }
  // giveFeedback's selector as chain-facts §5.1 records it; the indexer's topics are v1's.
  const giveFeedback = reputationRegistryAbi.find((e) => e.type === 'function' && e.name === 'giveFeedback') as AbiFunction
  assert.equal(toFunctionSignature(giveFeedback), 'giveFeedback(uint256,int128,uint8,string,string,string,string,bytes32)')
  const newFeedback = reputationRegistryAbi.find((e) => e.type === 'event' && e.name === 'NewFeedback') as AbiEvent
  const revoked = reputationRegistryAbi.find((e) => e.type === 'event' && e.name === 'FeedbackRevoked') as AbiEvent
  assert.equal(WATCHED_EVENTS.newFeedback, toEventSelector(newFeedback))
  assert.equal(WATCHED_EVENTS.feedbackRevoked, toEventSelector(revoked))
})
