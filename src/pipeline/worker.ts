import { randomUUID } from 'node:crypto'
import type { PipelineDeps } from './deps.ts'
import { releaseLeasesOf, takeDueSubmission } from '../store/submissions.ts'
import { runSubmission } from './saga.ts'

export type Worker = {
  start(): void
  stop(): Promise<void>
  /** Looks for due work now instead of at the next poll. */
  poke(): void
  owner: string
  runOnce(): Promise<boolean>
}

/**
 * Finishes every owed submission: takes due ones under a lease (a crashed owner's lease
 * expires), runs the saga, repeats. Any number of workers may share one database.
 */
export function createWorker(deps: PipelineDeps, options: { pollMs: number; leaseMs: number }): Worker {
  const owner = `worker-${randomUUID()}`
  let running = false
  let loop: Promise<void> | undefined
  let wake: (() => void) | undefined

  async function runOnce(): Promise<boolean> {
    const submission = await takeDueSubmission(deps.db, owner, options.leaseMs)
    if (!submission) return false
    // Every outcome is recorded by the saga (minted, released on a refusal, or scheduled).
    await runSubmission(deps, submission, owner)
    return true
  }

  return {
    owner,
    runOnce,
    poke: () => wake?.(),
    start() {
      if (running) return
      running = true
      loop = (async () => {
        while (running) {
          let worked = false
          try {
            worked = await runOnce()
          } catch (error) {
            deps.log.error({ err: error }, 'worker iteration failed')
          }
          if (!worked && running) {
            await new Promise<void>((resolve) => {
              const timer = setTimeout(resolve, options.pollMs)
              wake = () => {
                clearTimeout(timer)
                resolve()
              }
            })
          }
        }
      })()
    },
    async stop() {
      running = false
      wake?.()
      await loop
      // Request handlers run the saga under this owner too; the HTTP server has finished them.
      await releaseLeasesOf(deps.db, owner).catch((error) => deps.log.warn({ err: error }, 'could not release submission leases; they expire on their own'))
    },
  }
}
