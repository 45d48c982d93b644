/**
 * Turns a function over a list into a function over one item: calls made while a run is under
 * way (or in the same tick as the first) are served together by the next run, in call order.
 * One failed run rejects every call it served.
 *
 * Concurrent sends of one key share one database transaction this way (one lock, one insert),
 * which is what bounds their throughput on a single-connection database.
 */
export function coalesce<T, R>(run: (items: T[]) => Promise<R[]>): (item: T) => Promise<R> {
  let queue: Array<{ item: T; resolve: (value: R) => void; reject: (error: unknown) => void }> = []
  let draining = false
  const drain = async () => {
    while (queue.length > 0) {
      const batch = queue
      queue = []
      try {
        const results = await run(batch.map((b) => b.item))
        batch.forEach((b, i) => b.resolve(results[i]!))
      } catch (error) {
        for (const b of batch) b.reject(error)
      }
    }
    draining = false
  }
  return (item) =>
    new Promise<R>((resolve, reject) => {
      queue.push({ item, resolve, reject })
      if (draining) return
      draining = true
      queueMicrotask(() => void drain())
    })
}

/**
 * `coalesce` per owner object (a database handle): calls naming the same owner share runs,
 * calls naming different owners never do. Owners are held weakly.
 */
export function coalescePer<O extends object, T, R>(run: (owner: O, items: T[]) => Promise<R[]>): (owner: O, item: T) => Promise<R> {
  const runners = new WeakMap<O, (item: T) => Promise<R>>()
  return (owner, item) => {
    let runner = runners.get(owner)
    if (!runner) runners.set(owner, (runner = coalesce((items: T[]) => run(owner, items))))
    return runner(item)
  }
}
