import { decodeFunctionResult, encodeFunctionData, maxUint256, parseAbi, toHex, type Abi, type Address, type Hex } from 'viem'
import type { DefiContractName } from '../chain/contract-names.ts'
import { defiAccount, defiAccountAddresses, defiRoles, type DefiAccountIndex } from './defi-accounts.ts'

const E18 = 10n ** 18n
const DAY = 86_400
/** How far back the chain starts: the seed replays 30 days of DeFi history, then catches up with the wall clock. */
export const DEFI_HISTORY_SECONDS = 30 * DAY
/** Staking budgets of the mainnet deploy script (docs/contributors/contracts.md, Staking venues); the emission controller gets 2,000,000 MG. */
const MOGGER_BUDGET = 8_000_000n * E18
const JESTER_BUDGET = 12_000_000n * E18
const EMISSION_FUND = 2_000_000n * E18
const PAIR_MC = 20_000_000n * E18
const PAIR_MG = 2_000_000n * E18
const SEED_GAS = 6_000_000n
export const SEED_NFT_URI = 'https://megachad.xyz/api/metadata/seed'

type Receipt = { status: string; contractAddress?: string | null; logs: { address: string; topics: string[]; data: string }[] }
export type DefiSeedTools = {
  rpc(method: string, params: unknown[]): Promise<unknown>
  deploy(name: string, args: unknown[]): Promise<Address>
}
export type DefiCore = { token: Address; secondToken: Address; nft: Address; deployer: Address; fund: Address }

/**
 * Deploys the DeFi contracts after the core suite and leaves 30 days of history on them:
 * liquidity in the MC/MG pair, stakes on both venues by holders of 1, 10 and 25 NFTs, a
 * council of NFT holders, burns in the ranking (this week's among them), the emission schedule
 * started, and one proposal in each state: Pending, Active, Defeated, Succeeded, Queued,
 * Executed, Expired, Vetoed. The chain starts `DEFI_HISTORY_SECONDS` before `nowSeconds`; the
 * seed moves the clock forward with `evm_setNextBlockTimestamp` and ends with a block at the
 * wall clock, so later blocks follow real time (x402 and relay deadlines are signed against it).
 */
export async function deployDefi(tools: DefiSeedTools, core: DefiCore, nowSeconds: number): Promise<Record<DefiContractName, Address>> {
  const { rpc, deploy } = tools
  const abis = new Map<string, Abi>()
  async function send(from: Address, to: Address, signature: string, args: unknown[] = []): Promise<Receipt> {
    let abi = abis.get(signature)
    if (!abi) abis.set(signature, (abi = parseAbi([signature]) as Abi))
    const functionName = (abi[0] as { name: string }).name
    const data = encodeFunctionData({ abi, functionName, args } as never)
    const hash = (await rpc('eth_sendTransaction', [{ from, to, data, gas: toHex(SEED_GAS) }])) as Hex
    const receipt = (await rpc('eth_getTransactionReceipt', [hash])) as Receipt
    if (receipt.status !== '0x1') throw new Error(`devnet DeFi seed: ${signature} from ${from} reverted (${hash})`)
    return receipt
  }
  const at = (seconds: number) => rpc('evm_setNextBlockTimestamp', [toHex(seconds)])
  const a = (index: DefiAccountIndex) => defiAccount(index)
  const { token, secondToken: mg, nft, deployer, fund } = core
  const approve = 'function approve(address,uint256) returns (bool)'
  const transfer = 'function transfer(address,uint256) returns (bool)'

  for (const address of Object.values(defiAccountAddresses)) {
    await rpc('hardhat_setBalance', [address, toHex(100n * E18)])
    await rpc('hardhat_impersonateAccount', [address])
  }

  // Contracts, in a fixed order after the core suite (their addresses follow the deployer's nonce).
  const circuitBreaker = await deploy('CircuitBreaker', [defiRoles.guardians.map(a)])
  const pair = await deploy('MegaChadLP', [token, mg, 'MEGACHAD-MEGAGOONER LP', 'MC-MG-LP', circuitBreaker])
  const ranking = await deploy('Framemogger', [token, mg, nft, fund])
  const moggerStaking = await deploy('MoggerStakingV2', [token, mg, nft, MOGGER_BUDGET, circuitBreaker])
  const jesterStaking = await deploy('JesterGoonerV3', [mg, nft, JESTER_BUDGET, [pair], [4000n], circuitBreaker])
  const governance = await deploy('Jestermogger', [mg, ranking, circuitBreaker])
  const vetoCouncil = await deploy('NFTVetoCouncil', [nft, governance])
  const emissionController = await deploy('EmissionController', [mg, moggerStaking, jesterStaking, a(defiRoles.treasury)])
  await send(deployer, governance, 'function setVetoCouncil(address)', [vetoCouncil])
  // Governance owns the jester venue, so a proposal can re-weight its pools (setAllocPoint).
  await send(deployer, jesterStaking, 'function transferOwnership(address)', [governance])

  // Budgets, and the emission schedule started with week 0 distributed.
  await send(deployer, mg, transfer, [moggerStaking, MOGGER_BUDGET])
  await send(deployer, mg, transfer, [jesterStaking, JESTER_BUDGET])
  await send(deployer, mg, transfer, [emissionController, EMISSION_FUND])
  await send(deployer, emissionController, 'function setDistributor(address,bool)', [deployer, true])
  await send(deployer, emissionController, 'function distributeEmissions()')

  // NFTs (the deployer is the NFT's minter): 1, 10 and 25 to the stakers, 1 to each other seed holder; then the council.
  const { one, ten, twentyFive } = defiRoles.stakers
  const holders = [one, ten, twentyFive, defiRoles.proposer, ...defiRoles.burners, ...defiRoles.council]
  const counts = holders.map((i) => (i === ten ? 10n : i === twentyFive ? 25n : 1n))
  await send(deployer, nft, 'function mintBatch(address[],uint256[],string)', [holders.map(a), counts, SEED_NFT_URI])
  const minted = (await rpcRead(rpc, nft, 'function totalMinted() view returns (uint256)')) as bigint
  await send(deployer, vetoCouncil, 'function updateCouncil(uint256)', [minted - 1n])

  // Tokens: MC to stakers and burners, MG for liquidity, burning and the proposer's voting weight.
  for (const i of [one, ten, twentyFive]) {
    await send(deployer, token, transfer, [a(i), 2_000_000n * E18])
    await send(deployer, mg, transfer, [a(i), 100_000n * E18])
  }
  for (const i of [defiRoles.proposer, ...defiRoles.burners]) await send(deployer, token, transfer, [a(i), 1_000_000n * E18])
  await send(deployer, mg, transfer, [a(defiRoles.proposer), 3_000_000n * E18])
  for (const i of defiRoles.burners) await send(deployer, mg, transfer, [a(i), 100_000n * E18])

  // Liquidity: 20,000,000 MC against 2,000,000 MG (10 MC per MG).
  await send(deployer, token, approve, [pair, maxUint256])
  await send(deployer, mg, approve, [pair, maxUint256])
  await send(deployer, pair, 'function addLiquidity(uint256,uint256,address) returns (uint256)', [PAIR_MC, PAIR_MG, deployer])

  // Stakes: 1,000,000 MC on the mogger venue and the LP of 1,000,000 MC + 100,000 MG on the jester venue, each.
  for (const i of [one, ten, twentyFive]) {
    await send(a(i), token, approve, [moggerStaking, maxUint256])
    await send(a(i), moggerStaking, 'function stake(uint256)', [1_000_000n * E18])
    await send(a(i), token, approve, [pair, maxUint256])
    await send(a(i), mg, approve, [pair, maxUint256])
    const minted = await send(a(i), pair, 'function addLiquidity(uint256,uint256,address) returns (uint256)', [1_000_000n * E18, 100_000n * E18, a(i)])
    // Mint(sender indexed, amountA, amountB, liquidity): the third data word.
    const lp = BigInt(`0x${minted.logs.find((l) => l.address.toLowerCase() === pair.toLowerCase() && l.topics.length === 2)!.data.slice(130, 194)}`)
    await send(a(i), pair, approve, [jesterStaking, maxUint256])
    await send(a(i), jesterStaking, 'function stake(uint256,uint256)', [0n, lp])
  }
  for (const i of [defiRoles.proposer, ...defiRoles.burners]) {
    await send(a(i), token, approve, [ranking, maxUint256])
    await send(a(i), mg, approve, [ranking, maxUint256])
  }

  // Governance history. Proposals 1–5 on day −20: 1 expires, 2 executes, 3 is defeated,
  // 4 succeeds and is never queued, 5 is queued and vetoed.
  const proposer = a(defiRoles.proposer)
  const burn = (i: DefiAccountIndex, amount: bigint) => send(a(i), ranking, 'function sendMegachad(uint256)', [amount])
  const propose = (target: Address, data: Hex, description: string) =>
    send(proposer, governance, 'function propose(address[],uint256[],bytes[],string) returns (uint256)', [[target], [0n], [data], description])
  const vote = (id: bigint, support: number) => send(proposer, governance, 'function castVote(uint256,uint8)', [id, support])
  const queue = (id: bigint) => send(proposer, governance, 'function queue(uint256)', [id])
  const setAlloc = (alloc: bigint) => encodeFunctionData({ abi: parseAbi(['function setAllocPoint(uint256,uint256)']), functionName: 'setAllocPoint', args: [0n, alloc] })

  const start = nowSeconds - 20 * DAY
  await at(start)
  await burn(defiRoles.proposer, 100_000n * E18)
  await propose(jesterStaking, setAlloc(4500n), 'Raise the MC/MG pool to 4500 (expires unexecuted)')
  await propose(jesterStaking, setAlloc(5000n), 'Raise the MC/MG pool to 5000')
  await propose(jesterStaking, setAlloc(1000n), 'Lower the MC/MG pool to 1000')
  await propose(mg, zeroTransfer(fund), '[SIGNAL] Keep the burn price at 225,000 MEGACHAD')
  await propose(jesterStaking, setAlloc(100n), 'Lower the MC/MG pool to 100 (vetoed)')
  await at(start + DAY + 3600)
  for (const [id, support] of [[1n, 1], [2n, 1], [3n, 0], [4n, 1], [5n, 1]] as const) await vote(id, support)
  await at(start + 4 * DAY + 3600)
  for (const id of [1n, 2n, 5n]) await queue(id)
  await send(deployer, governance, 'function veto(uint256)', [5n])
  await at(start + 6 * DAY + 7200)
  await send(proposer, governance, 'function execute(uint256)', [2n])

  // Proposal 6 on day −6, queued on day −2 (eta 1 hour from now); 7 on day −2 (Active now).
  const recent = nowSeconds - 6 * DAY
  await at(recent)
  await burn(defiRoles.proposer, 50_000n * E18)
  await propose(mg, zeroTransfer(fund), '[SIGNAL] Queued: executable one hour after boot')
  await at(recent + DAY + 3600)
  await vote(6n, 1)
  await at(nowSeconds - 2 * DAY + 3600)
  await queue(6n)
  await propose(mg, zeroTransfer(fund), '[SIGNAL] Active: voting open')

  // This week: three burners in the ranking, proposal 8 (Pending), this week's emission.
  await at(nowSeconds - 600)
  await burn(defiRoles.proposer, 200_000n * E18)
  await burn(defiRoles.burners[0], 150_000n * E18)
  await burn(defiRoles.burners[1], 100_000n * E18)
  await propose(mg, zeroTransfer(fund), '[SIGNAL] Pending: voting starts in a day')
  await send(deployer, emissionController, 'function distributeEmissions()')

  for (const address of Object.values(defiAccountAddresses)) await rpc('hardhat_stopImpersonatingAccount', [address])
  return {
    moggerStaking, jesterStaking, pair, governance, vetoCouncil, ranking, emissionController, circuitBreaker,
  }
}

function zeroTransfer(to: Address): Hex {
  return encodeFunctionData({ abi: parseAbi(['function transfer(address,uint256) returns (bool)']), functionName: 'transfer', args: [to, 0n] })
}

async function rpcRead(rpc: DefiSeedTools['rpc'], to: Address, signature: string, args: unknown[] = []): Promise<unknown> {
  const abi = parseAbi([signature]) as Abi
  const functionName = (abi[0] as { name: string }).name
  const data = (await rpc('eth_call', [{ to, data: encodeFunctionData({ abi, functionName, args } as never) }, 'latest'])) as Hex
  return decodeFunctionResult({ abi, functionName, data } as never)
}
