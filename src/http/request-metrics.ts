import type { Metric, Registry } from 'prom-client'

export type RequestMetrics = {
  /** One answered request: `route` is the route pattern, never the raw URL. */
  observe(method: string, route: string, status: number, seconds: number): void
}

type Labels = Record<string, string>
type CountSeries = { labels: Labels; n: number }
type LatencySeries = { labels: Labels; buckets: number[]; sum: number; count: number }

/**
 * `http_requests_total` and `http_request_duration_seconds`, counted in plain numbers on the
 * request path and turned into prom-client's values only when Prometheus scrapes. prom-client's
 * own `observe` and `inc` validate and hash a label object on every call, about 5 % of what a
 * cached read costs (bench/README.md, read-side); here a request costs one Map look-up per metric.
 * The two objects take part in the registry as any metric does (text and JSON output, reset,
 * merge): prom-client's registry asks a metric only for its name and `get()`.
 */
export function registerRequestMetrics(registry: Registry, options: { buckets: number[]; maxSeries: number }): RequestMetrics {
  const { buckets, maxSeries } = options
  const counts = new Map<string, CountSeries>()
  const latency = new Map<string, LatencySeries>()

  const counter = {
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status.',
    type: 'counter',
    aggregator: 'sum',
    async get() {
      return { name: counter.name, help: counter.help, type: counter.type, aggregator: counter.aggregator, values: [...counts.values()].map((s) => ({ labels: s.labels, value: s.n })) }
    },
    reset: () => counts.clear(),
  }
  const histogram = {
    name: 'http_request_duration_seconds',
    help: 'Time from request to response, by method and route pattern.',
    type: 'histogram',
    aggregator: 'sum',
    async get() {
      const values: Array<{ labels: Record<string, string | number>; value: number; metricName: string; exemplar?: null }> = []
      for (const s of latency.values()) {
        // Cumulative, as Prometheus reads buckets; `le` first, as prom-client writes it.
        let below = 0
        buckets.forEach((bound, i) => {
          below += s.buckets[i]!
          values.push({ labels: { le: bound, ...s.labels }, value: below, metricName: `${histogram.name}_bucket`, exemplar: null })
        })
        values.push({ labels: { le: '+Inf', ...s.labels }, value: s.count, metricName: `${histogram.name}_bucket`, exemplar: null })
        values.push({ labels: s.labels, value: s.sum, metricName: `${histogram.name}_sum` })
        values.push({ labels: s.labels, value: s.count, metricName: `${histogram.name}_count` })
      }
      return { name: histogram.name, help: histogram.help, type: histogram.type, aggregator: histogram.aggregator, values }
    },
    reset: () => latency.clear(),
  }
  registry.registerMetric(counter as unknown as Metric)
  registry.registerMetric(histogram as unknown as Metric)

  return {
    observe(method, route, status, seconds) {
      const countKey = `${method} ${route} ${status}`
      let count = counts.get(countKey)
      if (!count) {
        // The bound only guards against a bug (series are route patterns times statuses).
        if (counts.size >= maxSeries) counts.clear()
        count = { labels: { method, route, status: String(status) }, n: 0 }
        counts.set(countKey, count)
      }
      count.n++
      const timeKey = `${method} ${route}`
      let time = latency.get(timeKey)
      if (!time) {
        if (latency.size >= maxSeries) latency.clear()
        time = { labels: { method, route }, buckets: buckets.map(() => 0), sum: 0, count: 0 }
        latency.set(timeKey, time)
      }
      // Past the last bound: counted in +Inf only (count), as prom-client does.
      const i = buckets.findIndex((bound) => seconds <= bound)
      if (i >= 0) time.buckets[i]!++
      time.sum += seconds
      time.count++
    },
  }
}
