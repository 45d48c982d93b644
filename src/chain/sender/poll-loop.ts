/**
 * A loop that runs `look` every `intervalMs` while `active()` says so, never two at once.
 * `wake()` asks for a look now (or right after the one under way), so work that arrives
 * meanwhile is looked at together; `exclusive` runs another look (at start-up) in turn with
 * the loop's.
 */
export function createPollLoop(options: { intervalMs: number; active: () => boolean; look: () => Promise<void>; onError: (error: unknown) => void }) {
  let tail: Promise<void> = Promise.resolve()
  const exclusive = (fn: () => Promise<void>): Promise<void> => {
    const run = tail.then(fn)
    tail = run.catch(() => {})
    return run
  }
  let timer: NodeJS.Timeout | undefined
  let looking = false
  let again = false

  function schedule(delayMs: number) {
    if (looking || timer || !options.active()) return
    timer = setTimeout(() => {
      timer = undefined
      looking = true
      again = false
      exclusive(options.look)
        .catch(options.onError)
        .finally(() => {
          looking = false
          schedule(again ? 0 : options.intervalMs)
        })
    }, delayMs)
  }

  return {
    exclusive,
    wake() {
      if (looking) {
        again = true
        return
      }
      if (timer) clearTimeout(timer)
      timer = undefined
      schedule(0)
    },
    /** Ends the wait for the next look when `active()` no longer holds, and waits for the one under way. */
    async settle() {
      if (timer && !options.active()) {
        clearTimeout(timer)
        timer = undefined
      }
      await tail
    },
  }
}
