import { Worker } from 'node:worker_threads'
import { availableParallelism } from 'node:os'
import type { ImageGenerator } from './port.ts'
import { AppError } from '../../errors/app-error.ts'

type Result = Awaited<ReturnType<ImageGenerator['generate']>>
type Pending = { resolve: (value: Result) => void; reject: (error: unknown) => void }
type Thread = { worker: Worker; pending: Map<number, Pending>; ready: boolean }

/**
 * The local stylizer in worker threads: face detection and pixel work are CPU-bound, and on the
 * main thread they would delay every request and chain call around them. A pool of `threads`
 * (default: the machine's cores), started by the first portrait, not at start-up: each thread
 * loads the face model once (about a second of CPU), in the background, so that a burst finds
 * every core's thread ready instead of waiting for a second one to load its model then. A job
 * goes to the ready thread with the fewest in hand (to a loading one only while none is ready).
 */
export function createThreadedStylizer(options: { threads?: number } = {}): ImageGenerator {
  const size = Math.max(1, options.threads ?? availableParallelism())
  const threads: Thread[] = []
  let nextId = 0

  function spawn(): Thread {
    // Compiled (dist/, `npm run build`) the thread is plain JavaScript; from source it needs
    // the TypeScript loader, which worker threads do not inherit.
    const compiled = import.meta.url.endsWith('.js')
    const worker = new Worker(new URL(compiled ? './stylizer-thread.js' : './stylizer-thread-entry.mjs', import.meta.url))
    const thread: Thread = { worker, pending: new Map(), ready: false }
    worker.on('message', (message: { id: number; result?: any; error?: string; ready?: true }) => {
      if (message.ready) {
        thread.ready = true
        return
      }
      const waiter = thread.pending.get(message.id)
      if (!waiter) return
      thread.pending.delete(message.id)
      if (thread.pending.size === 0) worker.unref()
      if (message.error !== undefined) {
        waiter.reject(new AppError('UPSTREAM_FAILED', 'The local stylizer failed.', { cause: new Error(message.error), retryable: true }))
      } else {
        waiter.resolve({ ...message.result, image: new Uint8Array(message.result.image) })
      }
    })
    const failAll = (error: unknown) => {
      for (const waiter of thread.pending.values()) waiter.reject(new AppError('UPSTREAM_FAILED', 'The local stylizer stopped.', { cause: error, retryable: true }))
      thread.pending.clear()
      const at = threads.indexOf(thread)
      if (at >= 0) threads.splice(at, 1)
    }
    worker.on('error', failAll)
    worker.on('exit', (code) => failAll(new Error(`stylizer thread exited with ${code}`)))
    // An idle stylizer must not keep the process alive.
    worker.unref()
    threads.push(thread)
    return thread
  }

  function pick(): Thread {
    while (threads.length < size) spawn()
    const ready = threads.filter((t) => t.ready)
    const from = ready.length > 0 ? ready : threads
    return from.reduce((best, t) => (t.pending.size < best.pending.size ? t : best))
  }

  return {
    name: 'local-stylizer',
    generate(input) {
      const id = nextId++
      const thread = pick()
      thread.worker.ref()
      return new Promise<Result>((resolve, reject) => {
        thread.pending.set(id, { resolve, reject })
        const image = input.image.slice()
        thread.worker.postMessage({ id, image, mimeType: input.mimeType, seed: input.seed }, [image.buffer])
      })
    },
    async close() {
      const running = threads.splice(0)
      await Promise.all(running.map((t) => t.worker.terminate()))
    },
  }
}
