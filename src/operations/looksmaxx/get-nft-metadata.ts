import { z } from 'zod'
import { defineOperation } from '../define.ts'
import { AppError } from '../../errors/app-error.ts'
import { getPortrait } from '../../store/portraits.ts'
import { findSubmissionByTxHash } from '../../store/submissions.ts'
import { buildMetadata } from '../../pipeline/build-metadata.ts'
import { rpcFailed } from '../../chain/upstream-error.ts'
import { portraitNftAbi as nftAbi } from '../../chain/abis/portrait-nft.ts'

const metadataSchema = z.object({
  name: z.string(),
  description: z.string(),
  image: z.string(),
  image_url: z.string(),
  external_url: z.string(),
  attributes: z.array(z.object({ trait_type: z.string(), value: z.string() })),
  properties: z.object({ ipfs_backup: z.string(), storage_token_id: z.number().int().nullable(), on_chain: z.boolean() }),
})

export const getNftMetadata = defineOperation({
  id: 'get_nft_metadata',
  // HTTP only: ERC-721 tokenURI document for wallets; portraits via get_identity and get_looksmaxx_status.
  method: 'GET',
  path: '/api/metadata/{tokenId}',
  summary: 'ERC-721 metadata of a minted portrait NFT',
  description: 'The same JSON that was pinned to IPFS before the mint (the token URI points at it). 404 when the token does not exist on chain.',
  tags: ['looksmaxx'],
  input: z.object({ tokenId: z.string().describe('Token ID (decimal)') }),
  output: metadataSchema,
  errors: ['NOT_FOUND', 'UPSTREAM_FAILED'],
  cacheControl: 'public, max-age=31536000, immutable',
  uses: ['db', 'pipeline', 'baseUrl', 'chain'],
  async handler(ctx, { tokenId }) {
    const notFound = () => new AppError('NOT_FOUND', `Token ${tokenId} does not exist.`)
    if (!/^\d{1,78}$/.test(tokenId)) throw notFound()
    const id = BigInt(tokenId)
    const portrait = await getPortrait(ctx.db, id)
    if (portrait) {
      const pinned = await ctx.pipeline.deps.ipfs.get?.(portrait.metadataCid)
      if (pinned) return metadataSchema.parse(JSON.parse(new TextDecoder().decode(pinned)))
      const submission = await findSubmissionByTxHash(ctx.db, portrait.burnTxHash)
      return buildMetadata({
        submission: { burnTxHash: portrait.burnTxHash as `0x${string}`, devTxHash: portrait.devTxHash as `0x${string}`, burner: portrait.burner as `0x${string}`, source: portrait.source as 'x402-agent' },
        imageCid: portrait.imageCid,
        gatewayUrl: ctx.pipeline.deps.ipfs.gatewayUrl(portrait.imageCid),
        externalUrl: `${ctx.baseUrl()}/api/x402/looksmaxx/${portrait.burnTxHash}`,
        createdAt: submission?.createdAt ?? portrait.mintedAt,
      })
    }
    // Minted outside this service (or before its database): describe it from the chain.
    let owner: string
    let uri: string
    try {
      const [ownerResult, uriResult] = await ctx.chain.client.multicall({
        contracts: [
          { address: ctx.chain.contracts.nft, abi: nftAbi, functionName: 'ownerOf', args: [id] },
          { address: ctx.chain.contracts.nft, abi: nftAbi, functionName: 'tokenURI', args: [id] },
        ],
      })
      if (ownerResult.status !== 'success') throw notFound()
      owner = ownerResult.result
      uri = uriResult.status === 'success' ? uriResult.result : ''
    } catch (cause) {
      if (cause instanceof AppError) throw cause
      throw rpcFailed('reading the NFT', cause)
    }
    // Its token URI is its own metadata document, not an image: it is linked as such, and no
    // image is claimed that this service does not know.
    return {
      name: `MegaCHAD Looksmaxx #${tokenId}`,
      description: `Portrait NFT #${tokenId}, owned by ${owner}, minted outside this service${uri ? `; its own metadata is at ${uri}` : ''}.`,
      image: '',
      image_url: '',
      external_url: uri || ctx.baseUrl(),
      attributes: [{ trait_type: 'Owner', value: owner }, ...(uri ? [{ trait_type: 'Token URI', value: uri }] : [])],
      properties: { ipfs_backup: '', storage_token_id: null, on_chain: false },
    }
  },
})
