import { test } from 'node:test'
import assert from 'node:assert/strict'
import fc from 'fast-check'
import { Counter, Histogram, Registry } from 'prom-client'
import { registerRequestMetrics } from '../../src/http/request-metrics.ts'

/** JSON with its keys sorted at every level: two values compare equal whatever order their keys were set in. */
const canonical = (value: unknown): string =>
  value && typeof value === 'object' && !Array.isArray(value)
    ? `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`).join(',')}}`
    : JSON.stringify(value)

const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 90]

// The request path keeps its own counts; a scrape must read exactly what prom-client's own
// Counter and Histogram would have written for the same requests.
test('request metrics scrape exactly as prom-client would write the same requests', async () => {
  const request = fc.record({
    method: fc.constantFrom('GET', 'POST'),
    route: fc.constantFrom('/api/gallery', '/api/metadata/:tokenId', 'unmatched', '/api/quote'),
    status: fc.constantFrom(200, 304, 400, 402, 404, 429, 500),
    // Every bucket, the bounds themselves and past the last one.
    seconds: fc.oneof(fc.double({ min: 0, max: 120, noNaN: true }), fc.constantFrom(...BUCKETS)),
  })
  await fc.assert(
    fc.asyncProperty(fc.array(request, { maxLength: 200 }), async (requests) => {
      const ours = new Registry()
      const metrics = registerRequestMetrics(ours, { buckets: BUCKETS, maxSeries: 10_000 })
      const theirs = new Registry()
      const counter = new Counter({ name: 'http_requests_total', help: 'HTTP requests answered, by method, route pattern and status.', labelNames: ['method', 'route', 'status'], registers: [theirs] })
      const histogram = new Histogram({ name: 'http_request_duration_seconds', help: 'Time from request to response, by method and route pattern.', labelNames: ['method', 'route'], buckets: BUCKETS, registers: [theirs] })
      for (const r of requests) {
        metrics.observe(r.method, r.route, r.status, r.seconds)
        counter.inc({ method: r.method, route: r.route, status: String(r.status) })
        histogram.observe({ method: r.method, route: r.route }, r.seconds)
      }
      // The order of series within a metric means nothing to Prometheus; everything else must match.
      const text = async (registry: Registry) => (await registry.metrics()).split('\n').sort()
      assert.deepEqual(await text(ours), await text(theirs))
      // As a JSON consumer reads them (prom-client leaves `exemplar: undefined` on sums and counts).
      const json = async (registry: Registry) =>
        JSON.parse(JSON.stringify(await registry.getMetricsAsJSON())).map((m: { values: unknown[] }) => ({ ...m, values: m.values.map(canonical).sort() }))
      assert.deepEqual(await json(ours), await json(theirs))
    }),
    { numRuns: 100 },
  )
})

test('request metrics start again from zero when the registry is reset', async () => {
  const registry = new Registry()
  const metrics = registerRequestMetrics(registry, { buckets: BUCKETS, maxSeries: 10_000 })
  metrics.observe('GET', '/api/stats', 200, 0.002)
  assert.match(await registry.metrics(), /^http_requests_total\{method="GET",route="\/api\/stats",status="200"\} 1$/m)
  registry.resetMetrics()
  metrics.observe('GET', '/api/stats', 200, 0.002)
  const text = await registry.metrics()
  assert.match(text, /^http_requests_total\{method="GET",route="\/api\/stats",status="200"\} 1$/m)
  assert.match(text, /^http_request_duration_seconds_bucket\{le="0\.0025",method="GET",route="\/api\/stats"\} 1$/m)
  assert.match(text, /^http_request_duration_seconds_bucket\{le="0\.001",method="GET",route="\/api\/stats"\} 0$/m)
})

test('past the bound of series, the series start again and the request that crossed it is counted', async () => {
  const registry = new Registry()
  const metrics = registerRequestMetrics(registry, { buckets: BUCKETS, maxSeries: 2 })
  metrics.observe('GET', '/a', 200, 0.002)
  metrics.observe('GET', '/b', 200, 0.002)
  metrics.observe('GET', '/c', 404, 0.002)
  const text = await registry.metrics()
  assert.match(text, /^http_requests_total\{method="GET",route="\/c",status="404"\} 1$/m)
  assert.doesNotMatch(text, /route="\/a"/)
})
