import { test } from 'node:test'
import assert from 'node:assert/strict'
import { rewriteRun, rewriteSummary, summaryRow, type Headline } from '../../bench/summary.ts'

const readme = `# Benchmarks

## Summary

Intro.

<!-- summary:start -->
| benchmark | figure | baseline | ratio | target | met | date |
| --- | --- | --- | --- | --- | --- | --- |
| http-reads | old price | bare | 0.79 | ≥ 0.60 | yes | 2026-11-24 |
| looksmaxx | p50 225 ms | | | p50 < 300 ms | yes | 2026-11-24 |
| read-side | old row | bare | 0.96 / 0.51 | ≥ 0.60 | no | 2026-11-25 |
| read-sidecar | not read-side | | | | | 2026-11-20 |
| stream | p99 76 ms | | | p99 < 500 ms | yes | 2026-11-24 |
<!-- summary:end -->

## read-side

Prose.

<!-- run:read-side:start -->
old tables
<!-- run:read-side:end -->

More prose.
`

const row = (name: string, figure: string): Headline => ({ name, figure, baseline: 'bare | same bytes', ratio: '0.90', target: '≥ 0.80', met: 'yes', date: '2026-11-25 13:00 UTC' })

test('the rows of the benchmarks that ran replace theirs, in place; the others are kept as they were', () => {
  const out = rewriteSummary(readme, ['read-side'], [row('read-side (cache on)', 'a'), row('read-side (cache off)', 'b')])
  const lines = out.split('\n').filter((line) => line.startsWith('| '))
  assert.deepEqual(
    lines.map((line) => line.split(' | ')[0]),
    ['| benchmark', '| ---', '| http-reads', '| looksmaxx', '| read-side (cache on)', '| read-side (cache off)', '| read-sidecar', '| stream'],
  )
  // A pipe inside a cell is escaped, so the table keeps its columns.
  assert.ok(out.includes('| bare \\| same bytes |'))
  assert.ok(out.includes('| looksmaxx | p50 225 ms | | | p50 < 300 ms | yes | 2026-11-24 |'))
  // Everything outside the markers is untouched.
  assert.ok(out.startsWith('# Benchmarks\n\n## Summary\n\nIntro.\n\n<!-- summary:start -->\n| benchmark |'))
  assert.ok(out.endsWith(readme.slice(readme.indexOf('<!-- summary:end -->'))))
  // Running it again with the same rows changes nothing.
  assert.equal(rewriteSummary(out, ['read-side'], [row('read-side (cache on)', 'a'), row('read-side (cache off)', 'b')]), out)
})

test('a benchmark that had no row gets its rows at the end; one with no new rows loses its old ones', () => {
  const out = rewriteSummary(readme, ['defi-activity', 'stream'], [row('defi-activity', 'warm 0.86')])
  const names = out.split('\n').filter((line) => line.startsWith('| ')).map((line) => line.split(' | ')[0])
  assert.deepEqual(names.slice(2), ['| http-reads', '| looksmaxx', '| read-side', '| read-sidecar', '| defi-activity'])
})

test('a README without the summary markers is refused, not rewritten somewhere else', () => {
  assert.throws(() => rewriteSummary('# Benchmarks\n', ['read-side'], []), /summary:start/)
})

test("a benchmark's latest run goes between its own markers; without them there is nothing to rewrite", () => {
  const out = rewriteRun(readme, 'read-side', '| new | table |\n')!
  assert.ok(out.includes('<!-- run:read-side:start -->\n| new | table |\n<!-- run:read-side:end -->\n\nMore prose.'))
  assert.ok(!out.includes('old tables'))
  assert.equal(rewriteRun(readme, 'stream', 'x'), undefined)
})

test('summaryRow writes the seven columns in order', () => {
  assert.equal(summaryRow(row('gasless', '100 relays/s')), '| gasless | 100 relays/s | bare \\| same bytes | 0.90 | ≥ 0.80 | yes | 2026-11-25 13:00 UTC |')
})
