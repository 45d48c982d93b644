import { Worker } from 'node:worker_threads'

/** What the store uses of a PGlite instance: statements, scripts, and closing it. */
export type PgliteLike = {
  query<T>(sql: string, params?: unknown[]): Promise<{ rows: T[]; affectedRows?: number }>
  exec(sql: string): Promise<unknown>
  close(): Promise<void>
}

type Reply = { id: number; rows?: unknown[]; affectedRows?: number; error?: Record<string, unknown> & { message: string } }

/**
 * PGlite in `dataDir`, run on a worker thread (src/store/pglite-thread.mjs): its statements
 * execute on another core, while this thread goes on answering requests. Errors keep the
 * fields callers read (`code`, `constraint`, ...). A thread that dies fails every statement
 * waiting for it.
 */
export async function openPgliteThread(dataDir: string): Promise<PgliteLike> {
  const worker = new Worker(new URL('./pglite-thread.mjs', import.meta.url), { workerData: { dataDir } })
  const pending = new Map<number, { resolve: (reply: Reply) => void; reject: (error: Error) => void }>()
  let nextId = 0
  let failure: Error | undefined
  await new Promise<void>((resolve, reject) => {
    const onMessage = (message: { opened?: boolean; error?: Reply['error'] }) => {
      if (message.opened === undefined) return
      worker.off('message', onMessage)
      worker.off('error', reject)
      if (message.opened) resolve()
      else reject(rebuild(message.error!))
    }
    worker.on('message', onMessage)
    worker.once('error', reject)
  })
  worker.on('message', (reply: Reply) => {
    const waiter = pending.get(reply.id)
    if (!waiter) return
    pending.delete(reply.id)
    waiter.resolve(reply)
  })
  const fail = (error: Error) => {
    failure ??= error
    for (const waiter of pending.values()) waiter.reject(failure)
    pending.clear()
  }
  worker.on('error', fail)
  worker.on('exit', (code) => fail(new Error(`the database thread exited (code ${code})`)))
  const call = (message: { op: 'query' | 'exec' | 'close'; sql?: string; params?: unknown[] }) =>
    new Promise<Reply>((resolve, reject) => {
      if (failure) return reject(failure)
      const id = nextId++
      pending.set(id, { resolve, reject })
      worker.postMessage({ ...message, id })
    }).then((reply) => {
      if (reply.error) throw rebuild(reply.error)
      return reply
    })
  return {
    async query<T>(sql: string, params?: unknown[]) {
      const reply = await call({ op: 'query', sql, params })
      return { rows: reply.rows as T[], affectedRows: reply.affectedRows }
    },
    exec: (sql) => call({ op: 'exec', sql }),
    async close() {
      if (!failure) await call({ op: 'close' })
      await worker.terminate()
    },
  }
}

/** The thread's error as an Error with the same message and fields. */
function rebuild(fields: Record<string, unknown> & { message: string }): Error {
  const error = new Error(fields.message)
  for (const [key, value] of Object.entries(fields)) if (key !== 'message' && key !== 'stack') (error as unknown as Record<string, unknown>)[key] = value
  return error
}
