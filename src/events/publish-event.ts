import type { Db } from '../store/db.ts'
import type { EventBus, ProtocolEvent } from '../adapters/bus/port.ts'
import { insertEvent } from '../store/events.ts'

/**
 * Stores the event (it gets its stream id), then fans it out. An event with a dedupe key
 * already stored is dropped: the pipeline and the indexer may both report the same burn.
 */
export async function publishEvent(
  deps: { db: Db; bus: EventBus },
  type: ProtocolEvent['type'],
  data: Record<string, unknown>,
  dedupeKey?: string,
): Promise<ProtocolEvent | undefined> {
  const event = await insertEvent(deps.db, type, data, dedupeKey)
  if (event) await deps.bus.publish(event)
  return event
}
