import type { Logger } from 'pino'
import type { Config } from './config/load.ts'
import type { Chain } from './chain/clients.ts'
import type { Db } from './store/db.ts'
import type { ResponseCache } from './cache/response-cache.ts'
import type { Freshness } from './cache/freshness.ts'
import type { ProfileCache } from './chain/reads/profile-cache.ts'
import type { PortraitProjection } from './store/portrait-projection.ts'
import type { PipelineDeps } from './pipeline/deps.ts'
import type { Worker } from './pipeline/worker.ts'
import type { EventBus } from './adapters/bus/port.ts'
import type { Indexer } from './indexer/indexer.ts'
import type { TxSender } from './chain/sender/tx-sender.ts'
import type { ReceiptIssuer } from './receipts/issuer.ts'

/**
 * The registry's entries, named here without importing operations/ (a layer above): the
 * operations layer fills it in by module augmentation (operations/define.ts adds
 * `operation: AnyOperation`), so `Context['operations']` is `AnyOperation[]` with no import cycle.
 */
export interface Registry {}

/**
 * What layers above operations/ give to it, named here without importing them: chat/agent.ts
 * adds `chat` (the chat engine the chat operations call); app.ts fills it in.
 */
export interface Ports {}

/** Everything a handler may use, built once by `createApp` and passed in. */
export type Context = {
  config: Config
  log: Logger
  chain: Chain
  db: Db
  cache: ResponseCache
  /** Versions of what cached answers depend on, and the newest block applied (read-your-writes). */
  fresh: Freshness
  /** Names, profiles and reputations of burners, renewed on their events (chadboard). */
  profiles: ProfileCache
  /** Read models held in memory, renewed by the events that write their tables (gallery, chadboard). */
  readModels: { portraits: PortraitProjection }
  /** The registry, for operations that describe the service itself (OpenAPI, manifests). */
  operations: Array<Registry[keyof Registry]>
  bus: EventBus
  pipeline: {
    deps: PipelineDeps
    facilitator: PipelineDeps['facilitator']
    worker: Worker
    /** Lease owner used by request handlers that run the saga inline. */
    owner: string
    leaseMs: number
  }
  indexer: Indexer
  /** Transaction senders of the agent economy (the relayer's hot key). */
  economy: { relayer: TxSender }
  /** Signs the 402's offers and the portraits' receipts with the published receipt key (the minter's). */
  receipts: ReceiptIssuer
  /** Absolute base URL of this service as clients reach it (known once listening). */
  baseUrl(): string
  /** The current time in milliseconds since the epoch, like Date.now (a test hands a fixed one). */
  clock: () => number
} & Ports
