import type { Submission } from '../store/submissions.ts'

export type NftMetadata = {
  name: string
  description: string
  image: string
  image_url: string
  external_url: string
  attributes: Array<{ trait_type: string; value: string }>
  properties: { ipfs_backup: string; storage_token_id: number | null; on_chain: boolean }
}

/**
 * The ERC-721 metadata pinned before the mint (so the token URI is final at mint time).
 * It is named after its burn, which is known now, not after the token ID, which is not.
 */
export function buildMetadata(args: {
  submission: Pick<Submission, 'burnTxHash' | 'devTxHash' | 'burner' | 'source'>
  imageCid: string
  gatewayUrl: string
  externalUrl: string
  createdAt: Date
}): NftMetadata {
  const { submission, imageCid } = args
  const short = `${submission.burnTxHash.slice(0, 10)}…${submission.burnTxHash.slice(-4)}`
  return {
    name: `MegaCHAD Looksmaxx ${short}`,
    description: `Looksmaxxed by ${submission.burner}${submission.source === 'x402-agent' ? ' via x402 agent' : ''}. Burn tx: ${submission.burnTxHash}`,
    image: `ipfs://${imageCid}`,
    image_url: args.gatewayUrl,
    external_url: args.externalUrl,
    attributes: [
      { trait_type: 'Burner', value: submission.burner },
      { trait_type: 'Burn Tx', value: submission.burnTxHash },
      { trait_type: 'Dev Tx', value: submission.devTxHash },
      { trait_type: 'Source', value: submission.source },
      { trait_type: 'Storage', value: 'IPFS' },
      { trait_type: 'Date', value: args.createdAt.toISOString() },
    ],
    properties: { ipfs_backup: args.gatewayUrl, storage_token_id: null, on_chain: false },
  }
}
