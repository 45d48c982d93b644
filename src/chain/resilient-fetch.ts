/**
 * How the service meets an RPC provider that pushes back. A 429 is waited out as its
 * Retry-After says, by every request of the process (the provider counts them all); a 5xx,
 * a dropped connection or an attempt that outlives `attemptTimeoutMs` is tried again after a
 * backoff, but only for calls that change nothing: a transaction send that got no answer may
 * have been taken, and its sender (src/chain/sender) finds out from the chain instead.
 */
export type RetryPolicy = {
  /** Longest wait for one HTTP attempt. */
  attemptTimeoutMs: number
  /** Further attempts after the first. */
  retries: number
  /** First backoff; doubles per attempt (with jitter). */
  baseDelayMs: number
  /** Longest single wait (backoff or Retry-After); a provider asking for longer is not waited for. */
  maxDelayMs: number
}

export type FetchCounters = { request(): void; error(): void; retry(reason: '429' | '5xx' | 'timeout' | 'network'): void }

/** Methods whose repetition could act twice. */
const SENDS = new Set(['eth_sendRawTransaction', 'eth_sendRawTransactionSync', 'realtime_sendRawTransaction', 'eth_sendTransaction'])

function methodsOf(body: unknown): string[] {
  if (typeof body !== 'string') return []
  try {
    return [JSON.parse(body)].flat().map((call: { method?: unknown }) => String(call?.method))
  } catch {
    return []
  }
}

/** Retry-After in milliseconds: delta-seconds or an HTTP date (RFC 9110 §10.2.3). */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined
  const seconds = Number(header)
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000
  const date = Date.parse(header)
  return Number.isNaN(date) ? undefined : Math.max(0, date - now)
}

const sleep = (ms: number, signal?: AbortSignal | null) =>
  new Promise<void>((resolve, reject) => {
    if (ms <= 0) return resolve()
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    const onAbort = () => {
      clearTimeout(timer)
      reject(signal!.reason)
    }
    signal?.addEventListener('abort', onAbort, { once: true })
  })

export function createResilientFetch(policy: RetryPolicy, counters?: FetchCounters, base: typeof fetch = fetch): typeof fetch {
  /** No request leaves before this time (monotonic clock: a wall-clock step must not cut a wait short): the provider's last Retry-After. */
  let notBefore = 0
  const backoff = (attempt: number) => Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt) * (0.5 + Math.random() / 2)

  return async (input, init) => {
    const safe = methodsOf(init?.body).every((method) => !SENDS.has(method))
    const outer = init?.signal
    for (let attempt = 0; ; attempt++) {
      await sleep(notBefore - performance.now(), outer)
      counters?.request()
      const timeout = AbortSignal.timeout(policy.attemptTimeoutMs)
      const signal = outer ? AbortSignal.any([outer, timeout]) : timeout
      let response: Response
      try {
        response = await base(input, { ...init, signal })
      } catch (error) {
        counters?.error()
        if (outer?.aborted) throw error
        const reason = timeout.aborted ? 'timeout' : 'network'
        if (!safe || attempt >= policy.retries) throw error
        counters?.retry(reason)
        await sleep(backoff(attempt), outer)
        continue
      }
      if (response.ok) return response
      counters?.error()
      if (attempt >= policy.retries) return response
      if (response.status === 429) {
        // Refused before it was looked at: safe to repeat, sends included.
        const wait = retryAfterMs(response.headers.get('retry-after')) ?? backoff(attempt)
        if (wait > policy.maxDelayMs) return response
        notBefore = Math.max(notBefore, performance.now() + wait)
        await response.body?.cancel().catch(() => undefined)
        counters?.retry('429')
        continue
      }
      if (response.status >= 500 && safe) {
        await response.body?.cancel().catch(() => undefined)
        counters?.retry('5xx')
        await sleep(backoff(attempt), outer)
        continue
      }
      return response
    }
  }
}
