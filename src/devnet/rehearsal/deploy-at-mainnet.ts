import { encodeDeployData, encodeFunctionData, getAddress, maxUint256, parseAbi, parseEther, toHex, type Abi, type Address, type Hex } from 'viem'
import { callProvider, type JsonRpcHandler } from '../edr-provider.ts'
import { compileContracts } from '../compile.ts'
import { loadDexArtifacts } from '../artifacts.ts'
import { placePermit2 } from '../deploy-permit2.ts'
import { devnetAccount, roles } from '../../chain/devnet-accounts.ts'
import { BURN_ADDRESS, BURN_TOTAL_WEI, POOL_FEE } from '../../chain/constants.ts'
import type { ContractAddresses } from '../../chain/contract-names.ts'
import { MAINNET, MAINNET_AGENT_ID } from './mainnet-addresses.ts'
import { placeAt } from './place-at.ts'
import { isqrt, shortStringSlot } from '../storage-words.ts'

const E18 = 10n ** 18n
const POOL_ETH = parseEther('1000')
const POOL_TOKENS = 400_000_000n * E18
const FULL_RANGE_TICK = 887_200
const GAS = toHex(15_000_000)

export type RehearsalDeployment = {
  contracts: ContractAddresses
  fundWallet: Address
  facilitator: Address
  agentId: string
  /** The block of the last deployment transaction: the indexer's start block. */
  deployBlock: number
}

export type Rpc = (method: string, params: unknown[]) => Promise<unknown>

export function rpcOf(provider: JsonRpcHandler): Rpc {
  return async (method, params) => {
    const { result, error } = await callProvider(provider, method, params)
    if (error) throw new Error(`${method}: ${error.message}`)
    return result
  }
}



/**
 * The service's contracts at their MegaETH mainnet addresses (mainnet-addresses.ts), each
 * constructed in place (place-at.ts) with the constructor arguments of the real deployment:
 * the token mints its supply to the deployer and keeps the fund wallet as devWallet, the
 * relayer and referral hold the real burn and fund addresses, the quoter and router hold WETH
 * and the factory. The NFT and USDm are owned by the deployer (devnet account 0: the minter
 * key of the rehearsal), the relayer by account 1. Kumbaya's factory and position manager have
 * no recorded address and are deployed normally; the pool is where that factory's CREATE2
 * puts it, since the quoter and router compute its address from the factory (the mainnet
 * pool's address cannot be reproduced without Kumbaya's factory).
 */
export async function deployAtMainnet(provider: JsonRpcHandler, options: { agentUri: string }): Promise<RehearsalDeployment> {
  const rpc = rpcOf(provider)
  const compiled = await compileContracts()
  const dex = loadDexArtifacts()
  const deployer = devnetAccount(roles.deployer).address
  const relayerKey = devnetAccount(roles.relayer).address

  async function mined(hash: Hex) {
    const receipt = (await rpc('eth_getTransactionReceipt', [hash])) as { status: string; contractAddress?: string; logs: { address: string; topics: string[] }[] }
    if (receipt.status !== '0x1') throw new Error(`rehearsal deployment transaction ${hash} reverted`)
    return receipt
  }
  async function send(from: Address, to: Address, signature: string, args: unknown[] = [], value = 0n) {
    const abi = parseAbi([signature]) as Abi
    const data = encodeFunctionData({ abi, functionName: (abi[0] as { name: string }).name, args } as never)
    return mined((await rpc('eth_sendTransaction', [{ from, to, data, gas: GAS, value: toHex(value) }])) as Hex)
  }
  const creation = (name: string, args: unknown[] = [], artifact?: { abi: unknown[]; bytecode: Hex }) => {
    const source = artifact ?? compiled[name]
    if (!source) throw new Error(`no artifact for ${name}`)
    return encodeDeployData({ abi: source.abi as Abi, bytecode: source.bytecode, args } as never)
  }
  async function deploy(name: string, args: unknown[] = [], artifact?: { abi: unknown[]; bytecode: Hex }): Promise<Address> {
    const hash = (await rpc('eth_sendTransaction', [{ from: deployer, data: creation(name, args, artifact), gas: GAS }])) as Hex
    return getAddress((await mined(hash)).contractAddress!)
  }
  const place = (address: string, name: string, args: unknown[] = [], from: Address = deployer, artifact?: { abi: unknown[]; bytecode: Hex }) =>
    placeAt(rpc, address, creation(name, args, artifact), from)

  // Predeploys and canonical addresses, as on every OP-stack chain.
  await rpc('hardhat_setCode', [MAINNET.weth, dex.weth9Runtime])
  await rpc('hardhat_setStorageAt', [MAINNET.weth, toHex(0, { size: 32 }), shortStringSlot('Wrapped Ether')])
  await rpc('hardhat_setStorageAt', [MAINNET.weth, toHex(1, { size: 32 }), shortStringSlot('WETH')])
  await rpc('hardhat_setStorageAt', [MAINNET.weth, toHex(2, { size: 32 }), toHex(18, { size: 32 })])
  await rpc('hardhat_setCode', [MAINNET.multicall3, compiled.Multicall3!.deployedBytecode])
  await placePermit2(rpc, compiled)

  // The service's contracts at their mainnet addresses.
  await place(MAINNET.token, 'MegaChadToken', ['Mega Chad', 'MEGACHAD', MAINNET.fundWallet])
  await place(MAINNET.usdm, 'USDm')
  await place(MAINNET.usdmForwarder, 'UsdmForwarder', [MAINNET.usdm])
  await place(MAINNET.nft, 'MegaCHADNFT')
  await place(MAINNET.relayer, 'MegaChadRelayer', [MAINNET.token, BURN_ADDRESS, MAINNET.fundWallet, BURN_TOTAL_WEI], relayerKey)
  await place(MAINNET.referral, 'MegaChadReferral', [MAINNET.token, BURN_ADDRESS, MAINNET.fundWallet, BURN_TOTAL_WEI])
  await place(MAINNET.identityRegistry, 'IdentityRegistry')
  await place(MAINNET.reputationRegistry, 'ReputationRegistry', [MAINNET.identityRegistry])
  await place(MAINNET.names, 'MegaNames')
  await place(MAINNET.namesChadboard, 'MegaNames')
  const factory = await deploy('UniswapV3Factory', [], dex.factory)
  const positionManager = await deploy('NonfungiblePositionManager', [factory, MAINNET.weth, '0x0000000000000000000000000000000000000000'], dex.positionManager)
  await place(MAINNET.quoterV2, 'QuoterV2', [factory, MAINNET.weth], deployer, dex.quoterV2)
  await place(MAINNET.swapRouter, 'SwapRouter02', ['0x0000000000000000000000000000000000000000', factory, positionManager, MAINNET.weth], deployer, dex.swapRouter02)

  // The WETH/token pool at the real fee tier, full-range liquidity.
  const token = getAddress(MAINNET.token)
  const weth = getAddress(MAINNET.weth)
  const [token0, token1] = BigInt(weth) < BigInt(token) ? [weth, token] : [token, weth]
  const [amount0, amount1] = token0 === weth ? [POOL_ETH, POOL_TOKENS] : [POOL_TOKENS, POOL_ETH]
  await send(deployer, positionManager, 'function createAndInitializePoolIfNecessary(address,address,uint24,uint160) payable returns (address)', [token0, token1, POOL_FEE, isqrt((amount1 << 192n) / amount0)])
  const poolData = encodeFunctionData({ abi: parseAbi(['function getPool(address,address,uint24) view returns (address)']), functionName: 'getPool', args: [token0, token1, POOL_FEE] })
  const pool = getAddress(`0x${((await rpc('eth_call', [{ to: factory, data: poolData }, 'latest'])) as string).slice(26)}`)
  await send(deployer, weth, 'function deposit() payable', [], POOL_ETH)
  await send(deployer, weth, 'function approve(address,uint256) returns (bool)', [positionManager, maxUint256])
  await send(deployer, token, 'function approve(address,uint256) returns (bool)', [positionManager, maxUint256])
  await send(
    deployer,
    positionManager,
    'function mint((address token0,address token1,uint24 fee,int24 tickLower,int24 tickUpper,uint256 amount0Desired,uint256 amount1Desired,uint256 amount0Min,uint256 amount1Min,address recipient,uint256 deadline)) payable returns (uint256,uint128,uint256,uint256)',
    [{ token0, token1, fee: POOL_FEE, tickLower: -FULL_RANGE_TICK, tickUpper: FULL_RANGE_TICK, amount0Desired: amount0, amount1Desired: amount1, amount0Min: 0n, amount1Min: 0n, recipient: deployer, deadline: 2n ** 40n }],
  )

  // The service is a registered ERC-8004 agent, under its mainnet ID: the registry's next ID
  // (IdentityRegistry._nextId, after ERC-721's six slots, URI storage's one and EIP-712's two
  // fallback strings) is set to it first; the ID read back from the event is checked below.
  await rpc('hardhat_setStorageAt', [MAINNET.identityRegistry, toHex(9, { size: 32 }), toHex(MAINNET_AGENT_ID, { size: 32 })])
  const registration = await send(deployer, MAINNET.identityRegistry, 'function register(string agentURI) returns (uint256)', [options.agentUri])
  const agentId = BigInt(registration.logs.find((l) => l.address.toLowerCase() === MAINNET.identityRegistry.toLowerCase() && l.topics.length === 4)!.topics[3]!).toString()
  if (agentId !== String(MAINNET_AGENT_ID)) throw new Error(`the identity registry issued agent ${agentId}, not the mainnet ${MAINNET_AGENT_ID}`)

  // The payers of the rehearsal's flows (devnet accounts 4–9): USDm approved to the forwarder and Permit2, as a payer does once.
  for (const index of [roles.demoHolder, ...roles.agents]) {
    const account = devnetAccount(index).address
    await send(deployer, MAINNET.usdm, 'function mint(address,uint256)', [account, 1_000n * E18])
    await send(account, MAINNET.usdm, 'function approve(address,uint256) returns (bool)', [MAINNET.usdmForwarder, maxUint256])
    await send(deployer, token, 'function transfer(address,uint256) returns (bool)', [account, 10_000_000n * E18])
  }

  const contracts: ContractAddresses = {
    token,
    usdm: getAddress(MAINNET.usdm),
    usdmForwarder: getAddress(MAINNET.usdmForwarder),
    nft: getAddress(MAINNET.nft),
    relayer: getAddress(MAINNET.relayer),
    referral: getAddress(MAINNET.referral),
    identityRegistry: getAddress(MAINNET.identityRegistry),
    reputationRegistry: getAddress(MAINNET.reputationRegistry),
    names: getAddress(MAINNET.names),
    multicall3: getAddress(MAINNET.multicall3),
    weth,
    uniswapV3Factory: factory,
    positionManager,
    quoterV2: getAddress(MAINNET.quoterV2),
    swapRouter: getAddress(MAINNET.swapRouter),
    pool,
  }
  const deployBlock = Number((await callProvider(provider, 'eth_blockNumber')).result)
  return { contracts, fundWallet: getAddress(MAINNET.fundWallet), facilitator: getAddress(MAINNET.facilitator), agentId, deployBlock }
}
