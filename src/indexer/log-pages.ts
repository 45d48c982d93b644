/**
 * How a provider's refusal of an eth_getLogs call reads, in the words the common ones use:
 * a block-range cap ("block range too large", "at most N blocks", Alchemy's "up to a 2K block
 * range", QuickNode's "limited to a 10,000 range") or a result cap ("query returned more than
 * 10000 results", "Log response size exceeded"), with the range it suggests when it gives one.
 */
export type LogsRefusal =
  | { kind: 'range'; maxBlocks?: number; suggestedTo?: bigint }
  | { kind: 'results'; suggestedTo?: bigint }

/** Every text an RPC error carries: viem's message and details, the JSON-RPC data, the causes. */
function textsOf(error: unknown): string {
  const parts: string[] = []
  for (let e = error as { message?: unknown; details?: unknown; data?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    if (typeof e.message === 'string') parts.push(e.message)
    if (typeof e.details === 'string') parts.push(e.details)
    if (e.data !== undefined) parts.push(typeof e.data === 'string' ? e.data : JSON.stringify(e.data))
  }
  return parts.join(' | ')
}

function suggestionOf(text: string, from: bigint): bigint | undefined {
  const bracket = /\[\s*(0x[0-9a-f]+)\s*,\s*(0x[0-9a-f]+)\s*\]/i.exec(text)
  const data = /"from"\s*:\s*"(0x[0-9a-f]+)"\s*,\s*"to"\s*:\s*"(0x[0-9a-f]+)"/i.exec(text)
  const found = bracket ?? data
  if (!found) return undefined
  // A suggestion is only of use when it starts where we asked.
  return BigInt(found[1]!) === from ? BigInt(found[2]!) : undefined
}

export function classifyLogsRefusal(error: unknown, from: bigint): LogsRefusal | undefined {
  const text = textsOf(error)
  const suggestedTo = suggestionOf(text, from)
  if (/more than [\d,]+ (results|logs)|response size (exceeded|is larger)|too many (results|logs)|result (set|window) (is )?too large|exceeds? (the )?max(imum)? (number of )?(results|logs)/i.test(text)) {
    return { kind: 'results', suggestedTo }
  }
  if (/block range|range too (large|wide|big)|range is too|limited to (a )?[\d,]+k? ?(block )?range|[\d,]+k? blocks?\b.*(exceed|allowed|max)|(exceed|at most|max(imum)?|up to( a)?)\D{0,20}[\d,]+k? ?blocks?/i.test(text)) {
    const numbers = [...text.matchAll(/([\d,]+)(k?)\s*(?:block|range\b)/gi)]
      .map((m) => Number(m[1]!.replace(/,/g, '')) * (m[2] ? 1000 : 1))
      .filter((n) => Number.isSafeInteger(n) && n > 0)
    return { kind: 'range', maxBlocks: numbers.length ? Math.min(...numbers) : undefined, suggestedTo }
  }
  return undefined
}

/**
 * The size of the next eth_getLogs range. `cap` is the provider's block-range limit (the
 * configured page size until a refusal teaches a smaller one). For the result cap, a refused
 * size is remembered: pages stay at half of it (where the logs are as dense, they fit), and it
 * is doubled after PAGES_BEFORE_GROWING answered pages in a row, so sparser history is read in
 * larger ranges again at the price of an occasional refusal, not one every other page.
 */
const PAGES_BEFORE_GROWING = 8

export function createLogSpan(pageSize: number) {
  let cap = pageSize
  let span = pageSize
  let refusedAt: number | undefined
  let answeredInARow = 0
  const bound = () => Math.max(1, Math.min(cap, refusedAt === undefined ? cap : Math.floor(refusedAt / 2)))
  return {
    span: () => span,
    cap: () => cap,
    /** A range refusal: the cap, learned from the message or the suggestion, else half the asked range. */
    refusedRange(asked: number, refusal: Extract<LogsRefusal, { kind: 'range' }>, from: bigint): number {
      const suggested = refusal.suggestedTo !== undefined ? Number(refusal.suggestedTo - from + 1n) : undefined
      const learned = refusal.maxBlocks ?? suggested ?? Math.floor(asked / 2)
      cap = Math.max(1, Math.min(cap, learned, asked - 1))
      span = Math.min(span, cap)
      return span
    },
    /** A result refusal: the suggested range, else half; the next pages stay below the refused size. */
    refusedResults(asked: number, refusal: Extract<LogsRefusal, { kind: 'results' }>, from: bigint): number {
      const suggested = refusal.suggestedTo !== undefined ? Number(refusal.suggestedTo - from + 1n) : undefined
      refusedAt = refusedAt === undefined ? asked : Math.min(refusedAt, asked)
      answeredInARow = 0
      span = Math.max(1, Math.min(asked - 1, suggested !== undefined && suggested > 0 ? suggested : Math.floor(asked / 2)))
      return span
    },
    answered(): void {
      if (refusedAt !== undefined && ++answeredInARow >= PAGES_BEFORE_GROWING) {
        refusedAt = refusedAt * 2 > cap * 2 ? undefined : refusedAt * 2
        answeredInARow = 0
      }
      span = Math.min(bound(), span * 2)
    },
  }
}
