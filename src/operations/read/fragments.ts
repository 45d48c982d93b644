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

export type Joined = { bytes: Buffer; etag: string }

/**
 * `joinFragments` that keeps the last answer of each page (head and tail name the page): asked
 * again with the same fragments, the same objects in the same order, it returns the answer it
 * made, without copying 20 KB into a new buffer again. A memo of a pure function of immutable
 * inputs, not a cache with a lifetime: nothing in it can be stale, and a page whose rows changed
 * is joined again on its next read. Bounded: emptied when `maxPages` pages are held.
 */
export function createPageJoiner(maxPages = 256): (head: string, fragments: Fragment[], tail: string) => Joined {
  const pages = new Map<string, { fragments: Fragment[]; joined: Joined }>()
  return (head, fragments, tail) => {
    const key = `${head}\n${tail}`
    const held = pages.get(key)
    if (held && sameItems(held.fragments, fragments)) return held.joined
    const joined = joinFragments(head, fragments, tail)
    if (!held && pages.size >= maxPages) pages.clear()
    pages.set(key, { fragments, joined })
    return joined
  }
}

function sameItems<T>(a: T[], b: T[]): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}
