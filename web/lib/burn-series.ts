/** A `burn` event of GET /api/events (docs/agents/read-side.md, Events). */
export type BurnEvent = {
  txHash: string
  burner: string
  tokenId: string | null
  cid: string | null
  ipfsUrl: string | null
  source: string
  /** Whole tokens that transaction sent to the dead address, the fund wallet and a referral agent. */
  amount: number | null
  timestamp: string
}

/** One burn transaction as the page shows it. */
export type Burn = {
  txHash: string
  burner: string
  /** Milliseconds since the epoch: when it was first reported. */
  time: number
  amount: number
  tokenId: string | null
  source: string
}

/**
 * Folds a burn event into the burns seen so far, keyed by transaction. A looksmaxx is reported
 * twice with the same txHash (its transfer when mined, with the part sent to the dead address;
 * its portrait when minted, with the whole burn), so it counts once, with the larger amount.
 */
export function addBurn(burns: Map<string, Burn>, event: BurnEvent): Burn {
  const key = event.txHash.toLowerCase()
  const known = burns.get(key)
  const time = Date.parse(event.timestamp)
  const burn: Burn = {
    txHash: event.txHash,
    burner: event.burner,
    time: known ? Math.min(known.time, time) : time,
    amount: Math.max(known?.amount ?? 0, event.amount ?? 0),
    tokenId: event.tokenId ?? known?.tokenId ?? null,
    source: event.tokenId !== null ? event.source : (known?.source ?? event.source),
  }
  burns.set(key, burn)
  return burn
}

/**
 * The chart's columns (uPlot's data layout): x in unix seconds, then cumulative tokens burned
 * and cumulative burns, one point per burn, oldest first.
 */
export function burnSeries(burns: Iterable<Burn>): [number[], number[], number[]] {
  const sorted = [...burns].sort((a, b) => a.time - b.time)
  const xs: number[] = []
  const tokens: number[] = []
  const counts: number[] = []
  let total = 0
  for (const [i, burn] of sorted.entries()) {
    total += burn.amount
    xs.push(burn.time / 1000)
    tokens.push(total)
    counts.push(i + 1)
  }
  return [xs, tokens, counts]
}

/** The newest `n` burns, newest first. */
export function latestBurns(burns: Iterable<Burn>, n: number): Burn[] {
  return [...burns].sort((a, b) => b.time - a.time).slice(0, n)
}
