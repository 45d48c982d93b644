import {
  createPublicClient, createWalletClient, custom, getAddress, maxUint256, parseAbi, parseEther, toHex, type Abi, type Address, type Hex,
} from 'viem'
import { eip1193, DEVNET_CHAIN_ID, type JsonRpcHandler } from './edr-provider.ts'
import { compileContracts, type CompiledContracts } from './compile.ts'
import { loadDexArtifacts } from './artifacts.ts'
import { devnetAccount, roles } from '../chain/devnet-accounts.ts'
import { createViemChain } from '../chain/clients.ts'
import type { AllContractAddresses } from '../chain/contract-names.ts'
import { deployDefi } from './deploy-defi.ts'
import { placePermit2 } from './deploy-permit2.ts'
import { isqrt, shortStringSlot } from './storage-words.ts'

export const BURN_ADDRESS = '0x000000000000000000000000000000000000dEaD' as const
export const WETH_ADDRESS = '0x4200000000000000000000000000000000000006' as const
export const MULTICALL3_ADDRESS = '0xcA11bde05977b3631167028862bE2a173976CA11' as const
const E18 = 10n ** 18n
const BURN_AMOUNT = 225_000n * E18
/** Pool liquidity: 1000 ETH against 400,000,000 tokens, so a 5 ETH buy moves the price about 1 %. */
const POOL_ETH = parseEther('1000')
const POOL_TOKENS = 400_000_000n * E18
const POOL_FEE = 10_000
const FULL_RANGE_TICK = 887_200

export type Deployment = {
  contracts: AllContractAddresses
  deployBlock: number
  agentId: string
}



/**
 * Deploys and seeds the whole suite from account 0 in a fixed order, so every boot yields
 * the same addresses. The DeFi contracts (staking, pair, governance, veto council, ranking,
 * emission, circuit breaker) are deployed by `deployDefi` after all the others, so the core
 * addresses never move; it also moves the chain clock from the past genesis (see
 * `DEFI_HISTORY_SECONDS`) to `nowSeconds`, the wall clock at boot.
 */
export async function deployAll(provider: JsonRpcHandler, options: { agentUri: string; nowSeconds?: number }): Promise<Deployment> {
  const compiled: CompiledContracts = await compileContracts()
  const dex = loadDexArtifacts()
  const chain = createViemChain('http://127.0.0.1', 'https://megaexplorer.xyz', MULTICALL3_ADDRESS)
  const transport = custom(eip1193(provider))
  const client = createPublicClient({ chain, transport })
  const provider1193 = eip1193(provider)
  const rpc = (method: string, params: unknown[]) => provider1193.request({ method, params })
  const deployer = devnetAccount(roles.deployer).address
  const fund = devnetAccount(roles.fundWallet).address
  const wallet = (index: number) => createWalletClient({ chain, transport, account: devnetAccount(index).address })
  const owner = wallet(roles.deployer)

  async function mined(hash: Hex) {
    const receipt = await client.getTransactionReceipt({ hash })
    if (receipt.status !== 'success') throw new Error(`devnet seeding transaction ${hash} reverted`)
    return receipt
  }
  async function deploy(name: string, args: unknown[] = [], artifact?: { abi: unknown[]; bytecode: Hex }): Promise<Address> {
    const source = artifact ?? compiled[name]
    if (!source) throw new Error(`no artifact for ${name}`)
    const hash = await owner.deployContract({ abi: source.abi as Abi, bytecode: source.bytecode, args })
    return getAddress((await mined(hash)).contractAddress!)
  }
  async function call(from: ReturnType<typeof wallet>, address: Address, signature: string, args: unknown[], value = 0n) {
    const abi = parseAbi([signature])
    const hash = await from.writeContract({ address, abi, functionName: (abi[0] as { name: string }).name, args, value } as never)
    return mined(hash)
  }

  // WETH9 and Multicall3 live at fixed addresses on the real chain: place their code there.
  await rpc('hardhat_setCode', [WETH_ADDRESS, dex.weth9Runtime])
  await rpc('hardhat_setStorageAt', [WETH_ADDRESS, toHex(0, { size: 32 }), shortStringSlot('Wrapped Ether')])
  await rpc('hardhat_setStorageAt', [WETH_ADDRESS, toHex(1, { size: 32 }), shortStringSlot('WETH')])
  await rpc('hardhat_setStorageAt', [WETH_ADDRESS, toHex(2, { size: 32 }), toHex(18, { size: 32 })])
  await rpc('hardhat_setCode', [MULTICALL3_ADDRESS, compiled.Multicall3!.deployedBytecode])
  await placePermit2(rpc, compiled)

  const token = await deploy('MegaChadToken', ['Mega Chad', 'MEGACHAD', fund])
  const secondToken = await deploy('MegaGoonerToken')
  const usdm = await deploy('USDm')
  const usdmForwarder = await deploy('UsdmForwarder', [usdm])
  const nft = await deploy('MegaCHADNFT')
  const relayer = await deploy('MegaChadRelayer', [token, BURN_ADDRESS, fund, BURN_AMOUNT])
  const referral = await deploy('MegaChadReferral', [token, BURN_ADDRESS, fund, BURN_AMOUNT])
  const identityRegistry = await deploy('IdentityRegistry')
  const reputationRegistry = await deploy('ReputationRegistry', [identityRegistry])
  const names = await deploy('MegaNames')
  const uniswapV3Factory = await deploy('UniswapV3Factory', [], dex.factory)
  const positionManager = await deploy('NonfungiblePositionManager', [uniswapV3Factory, WETH_ADDRESS, '0x0000000000000000000000000000000000000000'], dex.positionManager)
  const quoterV2 = await deploy('QuoterV2', [uniswapV3Factory, WETH_ADDRESS], dex.quoterV2)
  const swapRouter = await deploy('SwapRouter02', ['0x0000000000000000000000000000000000000000', uniswapV3Factory, positionManager, WETH_ADDRESS], dex.swapRouter02)

  // The WETH/token pool at the real fee tier, with full-range liquidity.
  const [token0, token1] = BigInt(WETH_ADDRESS) < BigInt(token) ? [WETH_ADDRESS, token] : [token, WETH_ADDRESS]
  const [amount0, amount1] = token0 === WETH_ADDRESS ? [POOL_ETH, POOL_TOKENS] : [POOL_TOKENS, POOL_ETH]
  const sqrtPriceX96 = isqrt((amount1 << 192n) / amount0)
  await call(owner, positionManager, 'function createAndInitializePoolIfNecessary(address,address,uint24,uint160) payable returns (address)', [token0, token1, POOL_FEE, sqrtPriceX96])
  const pool = getAddress(
    (await client.readContract({ address: uniswapV3Factory, abi: parseAbi(['function getPool(address,address,uint24) view returns (address)']), functionName: 'getPool', args: [token0, token1, POOL_FEE] })) as Address,
  )
  await call(owner, WETH_ADDRESS, 'function deposit() payable', [], POOL_ETH)
  await call(owner, WETH_ADDRESS, 'function approve(address,uint256) returns (bool)', [positionManager, maxUint256])
  await call(owner, token, 'function approve(address,uint256) returns (bool)', [positionManager, maxUint256])
  const now = BigInt(Math.floor(Date.now() / 1000))
  await call(
    owner,
    positionManager,
    'function mint((address token0,address token1,uint24 fee,int24 tickLower,int24 tickUpper,uint256 amount0Desired,uint256 amount1Desired,uint256 amount0Min,uint256 amount1Min,address recipient,uint256 deadline)) payable returns (uint256,uint128,uint256,uint256)',
    [{ token0, token1, fee: POOL_FEE, tickLower: -FULL_RANGE_TICK, tickUpper: FULL_RANGE_TICK, amount0Desired: amount0, amount1Desired: amount1, amount0Min: 0n, amount1Min: 0n, recipient: deployer, deadline: now + 3600n }],
  )

  // The service is a registered ERC-8004 agent.
  const registration = await call(owner, identityRegistry, 'function register(string agentURI) returns (uint256)', [options.agentUri])
  const agentId = BigInt(registration.logs.find((l) => l.address.toLowerCase() === identityRegistry.toLowerCase() && l.topics.length === 4)!.topics[3]!).toString()

  // Balances of the accounts table.
  const holder = devnetAccount(roles.demoHolder).address
  await call(owner, token, 'function transfer(address,uint256) returns (bool)', [holder, 1_000_000n * E18])
  for (const index of [roles.demoHolder, ...roles.agents]) {
    const account = devnetAccount(index).address
    await call(owner, usdm, 'function mint(address,uint256)', [account, 1_000n * E18])
    // As a payer does once on the real chain before signing x402 payments.
    await call(wallet(index), usdm, 'function approve(address,uint256) returns (bool)', [usdmForwarder, maxUint256])
  }
  await call(wallet(roles.demoHolder), names, 'function register(string)', ['demo'])
  await call(wallet(roles.demoHolder), names, 'function setProfile(string,string,string,string,string,string)', ['', 'Demo holder of the devnet', '@demo', '', '', ''])

  const defi = await deployDefi(
    { rpc, deploy: (name, args) => deploy(name, args) },
    { token, secondToken, nft, deployer, fund },
    options.nowSeconds ?? Math.floor(Date.now() / 1000),
  )
  // The seed ends at the wall clock: one block stamped now, later blocks follow real time.
  await rpc('evm_setNextBlockTimestamp', [toHex(Math.floor(Date.now() / 1000))])
  await rpc('evm_mine', [])

  const contracts: AllContractAddresses = {
    token, secondToken, usdm, usdmForwarder, nft, relayer, referral, identityRegistry, reputationRegistry, names,
    multicall3: MULTICALL3_ADDRESS, weth: getAddress(WETH_ADDRESS), uniswapV3Factory, positionManager, quoterV2, swapRouter, pool,
    ...defi,
  }
  const deployBlock = Number(await client.getBlockNumber({ cacheTime: 0 }))
  if (Number(await client.getChainId()) !== Number(DEVNET_CHAIN_ID)) throw new Error('unexpected chain id')
  return { contracts, deployBlock, agentId }
}
