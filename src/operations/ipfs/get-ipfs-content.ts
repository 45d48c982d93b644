import { z } from 'zod'
import { defineOperation, respond } from '../define.ts'
import { AppError } from '../../errors/app-error.ts'
import { sniffImageType } from '../../pipeline/parse-portrait.ts'

export const getIpfsContent = defineOperation({
  id: 'get_ipfs_content',
  method: 'GET',
  path: '/ipfs/{cid}',
  summary: 'IPFS gateway of the built-in store: the bytes of a pinned CID',
  description: 'Content-addressed: the bytes hash to the CID (CIDv1, raw leaves, as `ipfs add --cid-version=1 --raw-leaves`). Immutable, cached forever.',
  tags: ['ipfs'],
  input: z.object({ cid: z.string().regex(/^[a-z2-7]{20,}$|^Qm[1-9A-HJ-NP-Za-km-z]{44}$/, { error: 'must be a CID' }) }),
  output: z.object({}).describe('The raw content (image/png, application/json, ...)'),
  errors: ['NOT_FOUND'],
  cacheControl: 'public, max-age=31536000, immutable',
  uses: ['pipeline'],
  async handler(ctx, { cid }) {
    const bytes = await ctx.pipeline.deps.ipfs.get?.(cid)
    if (!bytes) throw new AppError('NOT_FOUND', `CID ${cid} is not in this gateway's store.`)
    const type = sniffImageType(bytes) ?? (bytes[0] === 0x7b ? 'application/json' : 'application/octet-stream')
    return respond(200, Buffer.from(bytes), { 'content-type': type, etag: `"${cid}"` })
  },
})
