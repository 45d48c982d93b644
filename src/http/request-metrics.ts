import type { Metric, Registry } from 'prom-client'

export type RequestMetrics = {
  /** One answered request: `route` is the route pattern, never the raw URL. */
  observe(method: string, route: string, status: number, seconds: number): void
}

type Labels = Record<string, string>
type CountSeries = { labels: Labels; n: number }
type LatencySeries = { labels: Labels; buckets: number[]; sum: number; count: number }
type RouteSeries = { time: LatencySeries; byStatus: Map<number, CountSeries> }

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
  // Method -> route pattern -> the route's latency and its counts by status: no key string is
  // built per request. A reset empties everything (the registry's resetMetrics resets both).
  let routes = new Map<string, Map<string, RouteSeries>>()
  let series = 0
  const reset = () => {
    routes = new Map()
    series = 0
  }
  const all = () => [...routes.values()].flatMap((byRoute) => [...byRoute.values()])

  const counter = {
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status.',
    type: 'counter',
    aggregator: 'sum',
    async get() {
      const values = all().flatMap((r) => [...r.byStatus.values()].map((s) => ({ labels: s.labels, value: s.n })))
      return { name: counter.name, help: counter.help, type: counter.type, aggregator: counter.aggregator, values }
    },
    reset,
  }
  const histogram = {
    name: 'http_request_duration_seconds',
    help: 'Time from request to response, by method and route pattern.',
    type: 'histogram',
    aggregator: 'sum',
    async get() {
      const values: Array<{ labels: Record<string, string | number>; value: number; metricName: string; exemplar?: null }> = []
      for (const { time: s } of all()) {
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
    reset,
  }
  registry.registerMetric(counter as unknown as Metric)
  registry.registerMetric(histogram as unknown as Metric)

  return {
    observe(method, route, status, seconds) {
      // The bound only guards against a bug (series are route patterns times statuses): past
      // it, the series start again from this request.
      if (series >= maxSeries) reset()
      let byRoute = routes.get(method)
      if (!byRoute) routes.set(method, (byRoute = new Map()))
      let entry = byRoute.get(route)
      if (!entry) {
        entry = { time: { labels: { method, route }, buckets: buckets.map(() => 0), sum: 0, count: 0 }, byStatus: new Map() }
        byRoute.set(route, entry)
      }
      let count = entry.byStatus.get(status)
      if (!count) {
        series++
        count = { labels: { method, route, status: String(status) }, n: 0 }
        entry.byStatus.set(status, count)
      }
      count.n++
      const time = entry.time
      // Past the last bound: counted in +Inf only (count), as prom-client does.
      for (let i = 0; i < buckets.length; i++) {
        if (seconds <= buckets[i]!) {
          time.buckets[i]!++
          break
        }
      }
      time.sum += seconds
      time.count++
    },
  }
}
