/**
 * What each benchmark hands back to bench/run.ts, and the pure functions that write it into
 * bench/README.md: the rows of the Summary table (between `<!-- summary:start -->` and
 * `<!-- summary:end -->`) and each benchmark's latest run (between `<!-- run:<name>:start -->`
 * and `<!-- run:<name>:end -->`, where its section has those markers).
 */

/** One row of the Summary table. */
export type Headline = {
  /** The row's first cell: the benchmark's name, alone or followed by what the row is about. */
  name: string
  figure: string
  baseline: string
  ratio: string
  target: string
  /** `yes`, `no`, or which parts are met. */
  met: string
  date: string
}

/** What a benchmark returns: its Markdown tables, and its headline rows for the Summary. */
export type BenchResult = { section: string; headlines: Headline[] }

export const SUMMARY_START = '<!-- summary:start -->'
export const SUMMARY_END = '<!-- summary:end -->'
export const runMarkers = (bench: string) => [`<!-- run:${bench}:start -->`, `<!-- run:${bench}:end -->`] as const

const COLUMNS = ['benchmark', 'figure', 'baseline', 'ratio', 'target', 'met', 'date'] as const

/** `2026-11-25 13:05 UTC`: the date column, to the minute (several runs a day are compared). */
export function runDate(at = new Date()): string {
  return `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`
}

export const yesNo = (met: boolean) => (met ? 'yes' : 'no')

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ')

export function summaryRow(h: Headline): string {
  return `| ${[h.name, h.figure, h.baseline, h.ratio, h.target, h.met, h.date].map(cell).join(' | ')} |`
}

/** The first cell of a table row (`| read-side (cache off) | ...` → `read-side (cache off)`). */
function firstCell(row: string): string {
  return row.replace(/^\s*\|/, '').split(/(?<!\\)\|/)[0]!.trim()
}

/** A row belongs to a benchmark when its first cell is the name, or the name then a space. */
const belongsTo = (row: string, bench: string) => {
  const first = firstCell(row)
  return first === bench || first.startsWith(`${bench} `)
}

function between(text: string, start: string, end: string): { before: string; inner: string; after: string } | undefined {
  const i = text.indexOf(start)
  if (i < 0) return undefined
  const j = text.indexOf(end, i + start.length)
  if (j < 0) throw new Error(`${start} has no ${end}`)
  return { before: text.slice(0, i + start.length), inner: text.slice(i + start.length, j), after: text.slice(j) }
}

/**
 * The README with the Summary table's rows of `benches` replaced by `rows` (the benchmarks that
 * ran this time); rows of other benchmarks are kept as they are. A benchmark's new rows take the
 * place of its first old row (a new benchmark's go at the end). Throws without the markers.
 */
export function rewriteSummary(readme: string, benches: string[], rows: Headline[]): string {
  const part = between(readme, SUMMARY_START, SUMMARY_END)
  if (!part) throw new Error(`bench/README.md has no ${SUMMARY_START} … ${SUMMARY_END}`)
  const lines = part.inner.split('\n').filter((line) => line.trim().startsWith('|'))
  // Header and separator are written again; everything after them is a row.
  const old = lines.filter((line) => !/^\|\s*benchmark\s*\|/.test(line) && !/^\|\s*-+\s*\|/.test(line))
  const owner = (row: string) => benches.find((bench) => belongsTo(row, bench))
  const byBench = new Map(benches.map((bench) => [bench, rows.filter((h) => belongsTo(`| ${h.name} |`, bench)).map(summaryRow)]))
  const out: string[] = []
  const placed = new Set<string>()
  for (const row of old) {
    const bench = owner(row)
    if (!bench) out.push(row)
    else if (!placed.has(bench)) {
      placed.add(bench)
      out.push(...byBench.get(bench)!)
    }
  }
  for (const bench of benches) if (!placed.has(bench)) out.push(...byBench.get(bench)!)
  // Rows whose name belongs to none of the benches named still go in (not dropped silently).
  out.push(...rows.filter((h) => !benches.some((bench) => belongsTo(`| ${h.name} |`, bench))).map(summaryRow))
  const table = [`| ${COLUMNS.join(' | ')} |`, `| ${COLUMNS.map(() => '---').join(' | ')} |`, ...out].join('\n')
  return `${part.before}\n${table}\n${part.after}`
}

/**
 * The README with `markdown` between the benchmark's run markers; `undefined` when its section
 * has none (the caller prints it instead).
 */
export function rewriteRun(readme: string, bench: string, markdown: string): string | undefined {
  const [start, end] = runMarkers(bench)
  const part = between(readme, start, end)
  if (!part) return undefined
  return `${part.before}\n${markdown.trim()}\n${part.after}`
}
