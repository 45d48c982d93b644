import { z } from 'zod'
import { defineOperation, respond } from '../define.ts'
import { txHash } from '../schemas.ts'
import { receiptsOut } from './schemas.ts'
import { receiptsOf } from './receipts-of.ts'
import { mintedSubmission } from './minted-submission.ts'
import { receiptDocument } from '../../receipts/receipt-document.ts'

export const getLooksmaxxReceipt = defineOperation({
  id: 'get_looksmaxx_receipt',
  mcp: { tool: 'get_discovery_document', as: 'looksmaxx_receipt' },
  method: 'GET',
  path: '/api/x402/looksmaxx/{burnTxHash}/receipt',
  summary: 'The signed receipts of a minted looksmaxx, as a document whose keccak256 is its ERC-8004 feedbackHash',
  description:
    'The same receipts as the paid answer and the status resource ({x402, delivery}), served as RFC 8785 canonical JSON: keccak256 of these bytes is the feedbackHash that build_feedback_tx puts on chain with this URL as feedbackURI. Look up by either burn hash.',
  tags: ['looksmaxx'],
  input: z.object({ burnTxHash: txHash.describe('burnTxHash or devTxHash of the submission') }),
  output: receiptsOut,
  errors: ['NOT_FOUND', 'NOT_MINTED'],
  uses: ['db', 'chain', 'receipts', 'baseUrl'],
  async handler(ctx, { burnTxHash }) {
    const receipts = await receiptsOf(ctx, await mintedSubmission(ctx, burnTxHash))
    // The bytes the hash commits to: canonical JSON, written out as is.
    return respond(200, Buffer.from(receiptDocument(receipts), 'utf8'), { 'content-type': 'application/json; charset=utf-8' })
  },
})
