import type { Logger } from 'pino'
import type { Db } from '../store/db.ts'
import type { Chain } from '../chain/clients.ts'
import type { TxSender } from '../chain/sender/tx-sender.ts'
import type { Facilitator } from '../adapters/facilitator/port.ts'
import type { ImageGenerator } from '../adapters/image/port.ts'
import type { IpfsPinner } from '../adapters/ipfs/port.ts'
import type { EventBus } from '../adapters/bus/port.ts'
import type { Freshness } from '../cache/freshness.ts'
import type { PortraitProjection } from '../store/portrait-projection.ts'

/** Test-only crash points: the process kills itself there when FAULT_CRASH_AT names one. */
export type FaultPoint = 'before_settlement' | 'after_settlement' | 'after_mint_broadcast'

export type PipelineDeps = {
  db: Db
  chain: Chain
  facilitator: Facilitator
  images: ImageGenerator
  ipfs: IpfsPinner
  minter: TxSender
  bus: EventBus
  fresh: Freshness
  /** The gallery's and chadboard's read models, told what a mint recorded (they renew without reading it back). */
  portraits: Pick<PortraitProjection, 'recorded'>
  log: Logger
  baseUrl(): string
  retry: { baseMs: number; maxMs: number }
  /**
   * Portraits already being generated for a burn (keyed by burn hash), started once the
   * request has won the claim, while the payment settles; generation is deterministic, so
   * the step may use them. Pinning waits for the recorded settlement.
   */
  early: Map<string, Promise<Awaited<ReturnType<ImageGenerator['generate']>>>>
  /**
   * When the request that won the claim verified its payment and simulated the settlement
   * (keyed by burn hash; ms): the facilitator need not repeat them right after. A retry or a
   * takeover finds nothing here and has everything checked again.
   */
  checked?: Map<string, { atMs: number; simulatedFrom: `0x${string}` }>
  /** Lease length; the holder renews it while it works. */
  leaseMs: number
  fault(point: FaultPoint): void
}
