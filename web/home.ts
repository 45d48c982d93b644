import uPlot from 'uplot'
import 'uplot/dist/uPlot.min.css'
import './styles.css'
import { byId, debounce, getJson, h, safeUrl } from './dom.ts'
import { addBurn, burnSeries, latestBurns, type Burn, type BurnEvent } from './lib/burn-series.ts'
import { buildApiReference, type ApiOperation, type OpenApiDocument } from './lib/api-reference.ts'
import { formatNumber, formatTime, formatTokens, shortHex } from './lib/format.ts'

type Price = {
  price: { coinPerEth: number; ethPerCoin: number; ethPerMillionCoin: string }
  burnCost: { tokensRequired: number; estimatedEth: number; infraFeeUsdm: number }
  token: { symbol: string }
  chain: { name: string; chainId: number }
}
type Stats = { totalSupply: number; circulatingSupply: number; tokensBurned: number; totalBurns: number }
type Gallery = { burns: Array<{ txHash: string; burner: string; ipfsUrl: string; timestamp: string; burnAmount: number; tokenId: string }> }
type Chadboard = {
  entries: Array<{
    address: string
    chainName: string | null
    totalBurns: number
    totalBurned: number
    latestImage: string
    latestTimestamp: string
    reputation: { score: number | null; count: number }
  }>
}

const GALLERY_SIZE = 24
const FEED_SIZE = 15
const burns = new Map<string, Burn>()

/** Shows a failed read in its section instead of the console: the rest of the page goes on. */
function failed(element: HTMLElement, what: string, error: unknown) {
  element.replaceChildren(h('span', { class: 'muted' }, `Could not load ${what}: ${error instanceof Error ? error.message : String(error)}`))
}

async function showPrice() {
  try {
    const p = await getJson<Price>('/api/price')
    byId('price').textContent = `${formatNumber(Number(p.price.ethPerMillionCoin))} ETH`
    byId('price-detail').textContent = `per million ${p.token.symbol} · ${formatTokens(p.price.coinPerEth)} ${p.token.symbol} per ETH`
    byId('burn-cost').textContent = `${formatTokens(p.burnCost.tokensRequired)} ${p.token.symbol}`
    byId('burn-cost-detail').textContent = `≈ ${formatNumber(p.burnCost.estimatedEth)} ETH at this price, plus a ${p.burnCost.infraFeeUsdm} USDm fee (x402) · ${p.chain.name} (${p.chain.chainId})`
  } catch (error) {
    failed(byId('price'), 'the price', error)
  }
}

async function showStats() {
  try {
    const s = await getJson<Stats>('/api/stats')
    byId('tokens-burned').textContent = formatTokens(s.tokensBurned)
    byId('burn-totals').textContent = `${formatTokens(s.totalBurns)} portraits · ${formatTokens(s.circulatingSupply)} of ${formatTokens(s.totalSupply)} circulating`
  } catch (error) {
    failed(byId('tokens-burned'), 'the stats', error)
  }
}

async function showGallery() {
  const grid = byId('gallery-grid')
  try {
    const { burns: portraits } = await getJson<Gallery>(`/api/gallery?limit=${GALLERY_SIZE}`)
    byId('gallery-empty').hidden = portraits.length > 0
    grid.replaceChildren(
      ...portraits.map((p) =>
        h(
          'figure',
          { class: 'portrait', 'data-token-id': p.tokenId },
          h('a', { href: safeUrl(p.ipfsUrl), target: '_blank', rel: 'noopener' }, h('img', { src: safeUrl(p.ipfsUrl), alt: `Portrait #${p.tokenId}`, loading: 'lazy', width: 512, height: 512 })),
          h('figcaption', {}, h('strong', {}, `#${p.tokenId}`), ' ', h('span', { title: p.burner }, shortHex(p.burner)), h('br'), h('span', { class: 'muted' }, formatTime(p.timestamp))),
        ),
      ),
    )
  } catch (error) {
    failed(grid, 'the gallery', error)
  }
}

async function showChadboard() {
  const rows = byId('chadboard-rows')
  try {
    const { entries } = await getJson<Chadboard>('/api/chadboard')
    byId('chadboard-empty').hidden = entries.length > 0
    rows.replaceChildren(
      ...entries.map((e, i) =>
        h(
          'tr',
          { 'data-address': e.address },
          h('td', {}, i + 1),
          h('td', { title: e.address }, e.chainName ?? shortHex(e.address)),
          h('td', {}, e.totalBurns),
          h('td', {}, formatTokens(e.totalBurned)),
          h('td', {}, e.reputation.score === null ? '—' : `${e.reputation.score} (${e.reputation.count})`),
          h('td', {}, h('img', { src: safeUrl(e.latestImage), alt: `Latest portrait of ${e.chainName ?? e.address}`, loading: 'lazy' })),
        ),
      ),
    )
  } catch (error) {
    const cell = h('td', { colspan: 6 })
    rows.replaceChildren(h('tr', {}, cell))
    failed(cell, 'the chadboard', error)
  }
}

function createChart(): uPlot {
  const element = byId('chart')
  const stepped = uPlot.paths.stepped!({ align: 1 })
  return new uPlot(
    {
      width: Math.max(280, element.clientWidth - 16),
      height: 260,
      scales: { x: { time: true }, tokens: { auto: true }, count: { auto: true } },
      series: [
        {},
        { label: 'Tokens burned', scale: 'tokens', stroke: '#ff6b3d', fill: 'rgba(255,107,61,0.12)', width: 2, paths: stepped, value: (_u, v) => (v === null ? '—' : formatTokens(v)) },
        { label: 'Burns', scale: 'count', stroke: '#6c8cff', width: 2, paths: stepped },
      ],
      axes: [
        { stroke: '#9aa3b5', grid: { stroke: '#262c3a' } },
        { scale: 'tokens', stroke: '#9aa3b5', grid: { stroke: '#262c3a' }, size: 70, values: (_u, values) => values.map((v) => compact(v)) },
        { scale: 'count', side: 1, stroke: '#9aa3b5', grid: { show: false } },
      ],
    },
    [[], [], []],
    element,
  )
}

const compactFormat = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 })
const compact = (value: number) => compactFormat.format(value)

function showBurns(chart: uPlot) {
  chart.setData(burnSeries(burns.values()))
  const latest = latestBurns(burns.values(), FEED_SIZE)
  byId('feed').replaceChildren(
    ...(latest.length
      ? latest.map((b) =>
          h(
            'li',
            { 'data-tx': b.txHash.toLowerCase() },
            h('span', { class: 'source' }, b.tokenId ? `portrait #${b.tokenId}` : b.source),
            h('span', {}, b.amount ? `${formatTokens(b.amount)} burned` : 'minted'),
            h('span', { title: b.burner }, `by ${shortHex(b.burner)}`),
            h('code', { title: b.txHash }, shortHex(b.txHash)),
            h('span', { class: 'muted' }, formatTime(b.time)),
          ),
        )
      : [h('li', { class: 'muted' }, 'No burn yet: they appear here as they happen.')]),
  )
}

async function showApiReference() {
  const container = byId('api-reference')
  try {
    const doc = await getJson<OpenApiDocument>('/.well-known/openapi.json')
    const reference = buildApiReference(doc)
    byId('api-summary').replaceChildren(
      `${reference.count} operations, from the `,
      h('a', { href: '/.well-known/openapi.json' }, `OpenAPI ${doc.openapi ?? ''} document`),
      ` (${reference.title} ${reference.version}). The same operations are MCP tools at /api/mcp.`,
    )
    container.replaceChildren(
      ...reference.groups.flatMap((group) => [h('h3', { class: 'tag' }, group.tag), ...group.operations.map(renderOperation)]),
    )
  } catch (error) {
    failed(byId('api-summary'), 'the OpenAPI document', error)
  }
}

function renderOperation(op: ApiOperation): HTMLElement {
  const fields = (rows: ApiOperation['parameters'], caption: string) =>
    rows.length
      ? h(
          'table',
          {},
          h('caption', {}, caption),
          h('thead', {}, h('tr', {}, h('th', {}, 'name'), h('th', {}, 'in'), h('th', {}, 'type'), h('th', {}, 'required'), h('th', {}, 'description'))),
          h('tbody', {}, ...rows.map((f) => h('tr', {}, h('td', {}, h('code', {}, f.name)), h('td', {}, f.in), h('td', {}, f.type), h('td', {}, f.required ? 'yes' : ''), h('td', {}, f.description)))),
        )
      : null
  return h(
    'details',
    { class: 'op', 'data-operation-id': op.id },
    h('summary', {}, h('span', { class: `method ${op.method.toLowerCase()}` }, op.method), h('code', {}, op.path), h('span', {}, op.summary)),
    h(
      'div',
      { class: 'body' },
      op.description ? h('p', {}, op.description) : null,
      h('p', { class: 'muted' }, 'operationId ', h('code', {}, op.id)),
      fields(op.parameters, 'Parameters'),
      op.body ? fields(op.body.fields, `Body (${op.body.contentType}${op.body.required ? ', required' : ''})`) : null,
      h('table', {}, h('caption', {}, 'Responses'), h('tbody', {}, ...op.responses.map((r) => h('tr', { 'data-status': r.status }, h('td', {}, h('code', {}, r.status)), h('td', {}, r.description))))),
    ),
  )
}

/**
 * Burns, from the first one the service stored (lastEventId=0 replays them in pages of 500),
 * then live. EventSource reconnects by itself with Last-Event-ID when the server ends a stream.
 */
function followEvents(chart: uPlot) {
  const live = byId('live')
  const redraw = debounce(() => showBurns(chart), 100)
  const refreshReads = debounce(() => void Promise.all([showStats(), showGallery(), showChadboard(), showPrice()]), 250)
  const source = new EventSource('/api/events?lastEventId=0')
  source.addEventListener('open', () => {
    live.dataset.state = 'live'
    live.textContent = 'live: new burns and portraits appear as they happen'
  })
  source.addEventListener('error', () => {
    live.dataset.state = 'reconnecting'
    live.textContent = 'reconnecting to the event stream…'
  })
  source.addEventListener('burn', (message) => {
    addBurn(burns, JSON.parse((message as MessageEvent<string>).data) as BurnEvent)
    redraw()
    refreshReads()
  })
  source.addEventListener('stats', refreshReads)
}

const chart = createChart()
// The chart follows its box, whatever changes its width (a window resize, a phone rotated).
new ResizeObserver(debounce(() => chart.setSize({ width: Math.max(280, byId('chart').clientWidth - 16), height: 260 }), 100)).observe(byId('chart'))
followEvents(chart)
void Promise.all([showPrice(), showStats(), showGallery(), showChadboard(), showApiReference()])
// Swaps move the price without a burn: read it again now and then.
setInterval(() => void showPrice(), 30_000)
