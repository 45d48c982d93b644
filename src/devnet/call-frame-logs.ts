/**
 * The pseudo-token eth_simulateV1 names ETH by when it traces transfers (`traceTransfers`):
 * each ETH movement becomes an ERC-20 Transfer log emitted by this address.
 */
export const ETH_TRANSFER_EMITTER = '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee'
const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'

/** A frame of the callTracer (`withLog: true`), as EDR and geth write it. */
export type CallFrame = {
  type: string
  from: string
  to?: string
  value?: string
  error?: string
  calls?: CallFrame[]
  logs?: Array<{ address: string; topics: string[]; data: string; position?: string | number }>
}

export type FrameLog = { address: string; topics: string[]; data: string }

const word = (hex: string) => `0x${hex.replace(/^0x/, '').toLowerCase().padStart(64, '0')}`

/** Frames that move ETH: a call or creation with value (a delegate or static call moves none). */
const MOVES_ETH = new Set(['CALL', 'CREATE', 'CREATE2', 'SELFDESTRUCT'])

/**
 * The logs of a traced transaction in execution order, with every ETH movement inserted as a
 * Transfer log of {@link ETH_TRANSFER_EMITTER} where it happened (what eth_simulateV1 returns
 * with `traceTransfers`). A frame that reverted, and everything under it, left nothing.
 */
export function callFrameLogs(frame: CallFrame): FrameLog[] {
  if (frame.error) return []
  const out: FrameLog[] = []
  const value = frame.value ? BigInt(frame.value) : 0n
  if (value > 0n && MOVES_ETH.has(frame.type.toUpperCase()) && frame.to) {
    out.push({ address: ETH_TRANSFER_EMITTER, topics: [TRANSFER_TOPIC, word(frame.from), word(frame.to)], data: word(value.toString(16)) })
  }
  const calls = frame.calls ?? []
  const logs = (frame.logs ?? []).map((log) => ({ log, position: log.position === undefined ? calls.length : Number(log.position) }))
  // A log's position is the number of sub-calls of its frame made before it.
  let next = 0
  for (let i = 0; i <= calls.length; i++) {
    while (next < logs.length && logs[next]!.position <= i) {
      const { address, topics, data } = logs[next++]!.log
      out.push({ address: address.toLowerCase(), topics, data })
    }
    if (i < calls.length) out.push(...callFrameLogs(calls[i]!))
  }
  return out
}
