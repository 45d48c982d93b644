import { signExactPayment, type AuthorizationFields } from '../../src/cli/pay.ts'
import { createPublicClient, createWalletClient, encodeFunctionData, erc20Abi, http, keccak256, parseAbi, parseSignature, zeroAddress, type Chain } from 'viem'
import { randomBytes } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import path from 'node:path'
import sharp from 'sharp'
import { createViemChain } from '../../src/chain/clients.ts'
import { getJson } from './fetch-json.ts'
import { testAccount } from './accounts.ts'

const E18 = 10n ** 18n
const DEAD = '0x000000000000000000000000000000000000dEaD'
const nftAbi = parseAbi(['function ownerOf(uint256) view returns (address)', 'function balanceOf(address) view returns (uint256)', 'function tokenURI(uint256) view returns (string)'])

/**
 * A devnet agent that does what a real one does with viem: buys tokens with the quote's
 * swap, burns with two transfers, and signs the x402 payment from the 402 requirements.
 */
export async function createAgent(appUrl: string, rpcUrl: string, index: number) {
  const chain: Chain = createViemChain(rpcUrl, 'https://megaexplorer.xyz', '0xcA11bde05977b3631167028862bE2a173976CA11')
  const { account, privateKey } = testAccount(index)
  const publicClient = createPublicClient({ chain, transport: http(rpcUrl) })
  const wallet = createWalletClient({ chain, transport: http(rpcUrl), account })
  const protocol = (await getJson(`${appUrl}/.well-known/service-protocol.json`)).body
  const contracts = Object.fromEntries(Object.entries(protocol.contracts).map(([k, v]: [string, any]) => [k, v.address])) as Record<string, `0x${string}`>
  const fund = protocol.constants.fundWallet as `0x${string}`

  async function send(tx: { to: `0x${string}`; data?: `0x${string}`; value?: bigint }) {
    const hash = await wallet.sendTransaction(tx)
    const receipt = await publicClient.waitForTransactionReceipt({ hash })
    if (receipt.status !== 'success') throw new Error(`transaction ${hash} reverted`)
    return hash
  }

  const balanceOf = (token: `0x${string}`, owner: `0x${string}` = account.address) =>
    publicClient.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [owner] })

  return {
    account,
    privateKey,
    address: account.address,
    publicClient,
    contracts,
    fund,
    send,
    balanceOf,
    coinBalance: () => balanceOf(contracts.token!),
    usdmBalance: () => balanceOf(contracts.usdm!),
    nftBalance: () => publicClient.readContract({ address: contracts.nft!, abi: nftAbi, functionName: 'balanceOf', args: [account.address] }),
    ownerOf: (tokenId: bigint) => publicClient.readContract({ address: contracts.nft!, abi: nftAbi, functionName: 'ownerOf', args: [tokenId] }),
    /** Buys tokens through the quote endpoint's ready swap. */
    async buyTokens(ethAmount: string) {
      const { body } = await getJson(`${appUrl}/api/x402/quote?ethAmount=${ethAmount}&recipient=${account.address}`)
      return send({ to: body.swap.router, data: body.swap.data, value: BigInt(body.swap.value) })
    },
    /** The two burn transfers: 112,500 to the dead address, 112,500 to the fund wallet. */
    async burn(): Promise<{ burnTxHash: `0x${string}`; devTxHash: `0x${string}` }> {
      const transfer = (to: `0x${string}`) =>
        wallet.writeContract({ address: contracts.token!, abi: erc20Abi, functionName: 'transfer', args: [to, 112_500n * E18] })
      const burnTxHash = await transfer(DEAD)
      await publicClient.waitForTransactionReceipt({ hash: burnTxHash })
      const devTxHash = await transfer(fund)
      await publicClient.waitForTransactionReceipt({ hash: devTxHash })
      return { burnTxHash, devTxHash }
    },
    /** The x402 v1 "exact" payment the CLI signs (src/cli/pay.ts), with any field overridden. */
    async signPayment(requirements: any, overrides: Partial<AuthorizationFields> = {}) {
      // Ten minutes of slack before now (the CLI's one minute): devnet clocks of tests may lag.
      return signExactPayment(account, requirements, 4326, { validAfter: BigInt(Math.floor(Date.now() / 1000) - 600), ...overrides })
    },
    /**
     * The burner's consent to redeem its burns (burnerSignature, burnerDeadline): an EIP-712
     * RedeemBurn over the burns, keccak256 of the decoded image bytes and the payer (the zero
     * address on /api/generate), as burnerProof in the 402 body describes it.
     */
    async signRedeem(args: { burnTxHash: `0x${string}`; devTxHash: `0x${string}`; image: string; payer?: `0x${string}`; deadline?: number }) {
      const deadline = args.deadline ?? Math.floor(Date.now() / 1000) + 600
      const burnerSignature = await account.signTypedData({
        domain: { name: 'MegaChad Portrait', version: '1', chainId: 4326, verifyingContract: contracts.nft! },
        types: {
          RedeemBurn: [
            { name: 'burner', type: 'address' },
            { name: 'burnTxHash', type: 'bytes32' },
            { name: 'devTxHash', type: 'bytes32' },
            { name: 'imageHash', type: 'bytes32' },
            { name: 'payer', type: 'address' },
            { name: 'deadline', type: 'uint256' },
          ],
        },
        primaryType: 'RedeemBurn',
        message: {
          burner: account.address,
          burnTxHash: args.burnTxHash,
          devTxHash: args.devTxHash,
          imageHash: keccak256(Buffer.from(args.image, 'base64')),
          payer: args.payer ?? zeroAddress,
          deadline: BigInt(deadline),
        },
      })
      return { burnerSignature, burnerDeadline: deadline }
    },
    /** Cancels an EIP-3009 authorization on the forwarder (the payer's own cancelAuthorization). */
    async cancelAuthorization(requirements: any, nonce: `0x${string}`) {
      const signature = await account.signTypedData({
        domain: { name: requirements.extra.name, version: requirements.extra.version, chainId: 4326, verifyingContract: requirements.asset },
        types: { CancelAuthorization: [{ name: 'authorizer', type: 'address' }, { name: 'nonce', type: 'bytes32' }] },
        primaryType: 'CancelAuthorization',
        message: { authorizer: account.address, nonce },
      })
      const { v, r, s } = parseSignature(signature)
      return send({
        to: requirements.asset,
        data: encodeFunctionData({
          abi: parseAbi(['function cancelAuthorization(address authorizer, bytes32 nonce, uint8 v, bytes32 r, bytes32 s)']),
          functionName: 'cancelAuthorization',
          args: [account.address, nonce, Number(v), r, s],
        }),
      })
    },
    /** The wallet's EIP-712 signature of a registration (early access or referral agent), as the GET answers describe. */
    async signRegistration(primaryType: 'EarlyAccessRegistration' | 'ReferralAgentRegistration', fields: Record<string, string | undefined>, issuedAt = Math.floor(Date.now() / 1000)) {
      const names = primaryType === 'EarlyAccessRegistration' ? ['twitter', 'tweetUrl', 'referralCode'] : ['mcpEndpoint', 'description']
      const signature = await account.signTypedData({
        domain: { name: 'MegaChad', version: '1', chainId: 4326 },
        types: { [primaryType]: [{ name: 'wallet', type: 'address' }, ...names.map((name) => ({ name, type: 'string' })), { name: 'issuedAt', type: 'uint256' }] },
        primaryType,
        message: { wallet: account.address, ...Object.fromEntries(names.map((name) => [name, fields[name] ?? ''])), issuedAt: BigInt(issuedAt) },
      })
      return { issuedAt, signature }
    },
  }
}

export type Agent = Awaited<ReturnType<typeof createAgent>>

const require = createRequire(import.meta.url)

/** A real photo with faces (shipped in an npm package), as a ~1024 px JPEG in base64. */
export async function portraitBase64(): Promise<string> {
  const dir = path.dirname(require.resolve('@vladmandic/face-api/package.json'))
  const photo = await readFile(path.join(dir, 'demo', 'sample1.jpg'))
  const jpeg = await sharp(photo).resize(1024, 1024, { fit: 'inside' }).jpeg({ quality: 85 }).toBuffer()
  return jpeg.toString('base64')
}

/** A devnet agent holding the tokens of a looksmaxx (bought for 1 ETH through the quote's swap). */
export async function createReadyAgent(appUrl: string, rpcUrl: string, index: number): Promise<Agent> {
  const agent = await createAgent(appUrl, rpcUrl, index)
  await agent.buyTokens('1')
  return agent
}

/** Burns once and returns a looksmaxx submission without its payment (the test adds the one it is about). */
export async function burnedSubmission(agent: Agent) {
  const { burnTxHash, devTxHash } = await agent.burn()
  return { burnTxHash, devTxHash, burnerAddress: agent.address, image: await portraitBase64(), imageType: 'image/jpeg' }
}
