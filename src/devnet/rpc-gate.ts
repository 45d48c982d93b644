import type { JsonRpcHandler } from './edr-provider.ts'

/**
 * A readers-writer gate in front of the EDR provider. Ordinary requests pass together
 * (`shared`); a simulation (`exclusive`) waits for those in flight, holds every new one back,
 * mines its calls on a snapshot and reverts it, so no request ever sees the simulated blocks
 * and no transaction sent meanwhile is reverted with them. Exclusive runs queue one behind the
 * other; a queued one holds new shared requests back, so simulations are never starved.
 */
export type RpcGate = {
  shared<T>(run: () => Promise<T>): Promise<T>
  exclusive<T>(run: () => Promise<T>): Promise<T>
}

export function createRpcGate(): RpcGate {
  let active = 0
  let onDrained: (() => void) | undefined
  /** Set from the moment an exclusive run is queued until it ends. */
  let closed: Promise<void> | undefined
  let writers = 0
  let openGate: (() => void) | undefined
  let queue: Promise<unknown> = Promise.resolve()

  async function shared<T>(run: () => Promise<T>): Promise<T> {
    while (closed) await closed
    active++
    try {
      return await run()
    } finally {
      if (--active === 0) onDrained?.()
    }
  }

  function exclusive<T>(run: () => Promise<T>): Promise<T> {
    if (writers++ === 0) closed = new Promise<void>((resolve) => (openGate = resolve))
    const turn = queue.then(async () => {
      try {
        if (active > 0) await new Promise<void>((resolve) => (onDrained = resolve))
        onDrained = undefined
        return await run()
      } finally {
        if (--writers === 0) {
          const open = openGate
          closed = undefined
          openGate = undefined
          open?.()
        }
      }
    })
    queue = turn.catch(() => undefined)
    return turn
  }

  return { shared, exclusive }
}

/** The provider as ordinary requests see it: each request passes the gate as a shared one. */
export function gatedHandler(provider: JsonRpcHandler, gate: RpcGate): JsonRpcHandler {
  return { handleRequest: (request: string) => gate.shared(() => provider.handleRequest(request)) }
}
