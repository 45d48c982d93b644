import { createHash } from 'node:crypto'
import type { z } from 'zod'
import { AppError } from '../../errors/app-error.ts'

/** One row of a read model, validated and serialized once: a page is a join of these. */
export type Fragment = { bytes: Buffer; hash: string }

const COMMA = Buffer.from(',')
const sha1 = (text: string) => createHash('sha1').update(text).digest('base64url')

/**
 * Validates `value` against the schema of one entry of the answer and serializes it: done once
 * per read-model row (rows are immutable objects, replaced when they change), so a request
 * joins strings instead of validating and serializing every entry again.
 */
export function renderFragment(schema: z.ZodType, value: unknown, what: string): Fragment {
  const parsed = schema.safeParse(value)
  if (!parsed.success) {
    // A read model broke the answer's contract: a bug, never the caller's fault.
    throw new AppError('INTERNAL_ERROR', 'internal error', { cause: new Error(`${what} does not match its schema: ${parsed.error.message}`) })
  }
  const json = JSON.stringify(parsed.data)
  return { bytes: Buffer.from(json), hash: sha1(json) }
}

/**
 * The bytes of a JSON answer `head` + fragments joined by commas + `tail`, and its ETag, made
 * from the fragments' hashes (computed once each) rather than by hashing the whole answer:
 * equal fragments and ends, equal bytes, so the validator is exact and equal on every instance.
 */
export function joinFragments(head: string, fragments: Fragment[], tail: string): { bytes: Buffer; etag: string } {
  // Buffers copied once into the answer: no answer-sized string (a chadboard is 265 KB, a
  // large-object allocation in V8) built and encoded again per request.
  const parts: Buffer[] = [Buffer.from(head)]
  const hashes = new Array<string>(fragments.length)
  for (let i = 0; i < fragments.length; i++) {
    if (i > 0) parts.push(COMMA)
    parts.push(fragments[i]!.bytes)
    hashes[i] = fragments[i]!.hash
  }
  parts.push(Buffer.from(tail))
  const bytes = Buffer.concat(parts)
  return { bytes, etag: `"${sha1(`${head}\n${hashes.join('.')}\n${tail}`).slice(0, 27)}"` }
}

/** The content type of a joined answer (MCP and chat parse it back into a value). */
export const JSON_TYPE = 'application/json; charset=utf-8'
