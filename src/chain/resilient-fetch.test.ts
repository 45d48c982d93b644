import { test } from 'node:test'
import assert from 'node:assert/strict'
import http from 'node:http'
import { createResilientFetch, retryAfterMs } from './resilient-fetch.ts'

test('Retry-After is read as seconds or as an HTTP date', () => {
  assert.equal(retryAfterMs('2'), 2000)
  assert.equal(retryAfterMs(new Date(10_000).toUTCString(), 7_000), 3000)
  assert.equal(retryAfterMs('soon'), undefined)
  assert.equal(retryAfterMs(null), undefined)
})

/** A local server answering each request with the next of `answers` (then 200). */
async function serve(answers: Array<{ status: number; headers?: Record<string, string> } | 'hang'>) {
  const seen: number[] = []
  const server = http.createServer((req, res) => {
    // Intervals on the monotonic clock: a wall-clock step (NTP) must not shorten or stretch them.
    seen.push(performance.now())
    const next = answers.shift()
    if (next === 'hang') return
    req.resume()
    res.writeHead(next?.status ?? 200, { 'content-type': 'application/json', ...next?.headers }).end('{"jsonrpc":"2.0","id":1,"result":"0x1"}')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`
  return { url, seen, close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))) }
}

const read = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getLogs', params: [] })
const send = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_sendRawTransaction', params: ['0x'] })
// Attempts long enough that only the hung one times out on a busy machine: a test process that
// imports its other files meanwhile blocked the event loop past 1.5 s, the 429 then arrived after
// its attempt had timed out, and the retry (rightly, on a timeout) came after a short backoff.
const policy = { attemptTimeoutMs: 4000, retries: 3, baseDelayMs: 10, maxDelayMs: 2000 }

test('a 429 is waited out as Retry-After says; 5xx and hung reads are tried again; a send is not repeated after a 5xx', async () => {
  const server = await serve([{ status: 429, headers: { 'retry-after': '1' } }, { status: 503 }, 'hang'])
  try {
    const fetchRpc = createResilientFetch(policy)
    const response = await fetchRpc(server.url, { method: 'POST', body: read })
    assert.equal(response.status, 200)
    assert.equal(server.seen.length, 4, '429, 503, hung, then answered')
    assert.ok(server.seen[1]! - server.seen[0]! >= 950, `the second attempt waited the Retry-After (${server.seen[1]! - server.seen[0]!} ms)`)

    const sendServer = await serve([{ status: 502 }])
    try {
      const answered = await createResilientFetch(policy)(sendServer.url, { method: 'POST', body: send })
      assert.equal(answered.status, 502, 'the send\'s 5xx is its sender\'s to resolve')
      assert.equal(sendServer.seen.length, 1)
    } finally {
      await sendServer.close()
    }
  } finally {
    await server.close()
  }
})

test('a Retry-After longer than the longest wait fails the call at once', async () => {
  const server = await serve([{ status: 429, headers: { 'retry-after': '60' } }])
  try {
    const response = await createResilientFetch(policy)(server.url, { method: 'POST', body: read })
    assert.equal(response.status, 429)
    assert.equal(server.seen.length, 1)
  } finally {
    await server.close()
  }
})
