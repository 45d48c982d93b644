/**
 * Sends a burst of JSON POSTs at once (or one every `intervalMs`, whatever the answers: an
 * open-loop rate) and prints each answer's status, time and body: the load
 * generator of a benchmark, in a process of its own (as autocannon is) so its CPU is not
 * counted as the server's. Input on stdin: { url, bodies, intervalMs? }; output: each answer, and the time
 * from the first send to the last answer. Loopback only.
 */
import { text } from 'node:stream/consumers'

const { url, bodies, intervalMs = 0 } = JSON.parse(await text(process.stdin)) as { url: string; bodies: unknown[]; intervalMs?: number }
if (!new URL(url).hostname.startsWith('127.')) throw new Error('bursts go only to 127.0.0.1')
const first = performance.now()
const results = await Promise.all(
  bodies.map(async (body, i) => {
    // Each on its own schedule from the start, not after the previous answer.
    if (intervalMs > 0) await new Promise((resolve) => setTimeout(resolve, first + i * intervalMs - performance.now()))
    const started = performance.now()
    const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), signal: AbortSignal.timeout(60_000) })
    const answer = await response.json().catch(() => undefined)
    return { status: response.status, ms: performance.now() - started, body: answer }
  }),
)
process.stdout.write(JSON.stringify({ results, totalMs: performance.now() - first }))
