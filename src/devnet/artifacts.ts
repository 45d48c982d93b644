import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)

export type Artifact = { abi: unknown[]; bytecode: `0x${string}` }

function load(path: string): Artifact {
  const json = require(path) as { abi: unknown[]; bytecode: string }
  const bytecode = json.bytecode.startsWith('0x') ? json.bytecode : `0x${json.bytecode}`
  return { abi: json.abi, bytecode: bytecode as `0x${string}` }
}

/** Prebuilt WETH9 and Uniswap V3 artifacts from their npm packages (no compiler needed). */
export function loadDexArtifacts() {
  const weth = require('canonical-weth/build/contracts/WETH9.json') as { deployedBytecode: `0x${string}` }
  return {
    weth9Runtime: weth.deployedBytecode,
    factory: load('@uniswap/v3-core/artifacts/contracts/UniswapV3Factory.sol/UniswapV3Factory.json'),
    pool: load('@uniswap/v3-core/artifacts/contracts/UniswapV3Pool.sol/UniswapV3Pool.json'),
    positionManager: load('@uniswap/v3-periphery/artifacts/contracts/NonfungiblePositionManager.sol/NonfungiblePositionManager.json'),
    quoterV2: load('@uniswap/v3-periphery/artifacts/contracts/lens/QuoterV2.sol/QuoterV2.json'),
    swapRouter02: load('@uniswap/swap-router-contracts/artifacts/contracts/SwapRouter02.sol/SwapRouter02.json'),
  }
}
