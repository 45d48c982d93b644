/**
 * The node:test reporter of a test group: one JSON line per event the runner
 * (scripts/run-tests.ts) needs — a file done (with its time and counts) and every failure with
 * its test path and error — each prefixed so the runner can tell them from the tests' own output.
 */
import { inspect } from 'node:util'

export const MARK = '\u0001b2c '

type Event = { type: string; data: any }

export default async function* reporter(source: AsyncIterable<Event>) {
  const names: string[] = []
  const counts = new Map<string, { pass: number; fail: number; skip: number; todo: number }>()
  for await (const { type, data } of source) {
    if (type === 'test:start') {
      names.length = data.nesting
      names[data.nesting] = data.name
      continue
    }
    if (type !== 'test:pass' && type !== 'test:fail') continue
    names.length = data.nesting + 1
    names[data.nesting] = data.name
    const file = names[0]!
    if (data.nesting === 0) {
      const c = counts.get(file) ?? { pass: 0, fail: 0, skip: 0, todo: 0 }
      const failedHook = type === 'test:fail' && c.fail === 0
      yield `${MARK}${JSON.stringify({ kind: 'file', file, ms: Math.round(data.details.duration_ms), ...c, ok: type === 'test:pass' })}\n`
      if (failedHook) yield `${MARK}${JSON.stringify({ kind: 'fail', file, test: '(the file itself: a hook or an import)', error: describe(data.details.error) })}\n`
      continue
    }
    const c = counts.get(file) ?? { pass: 0, fail: 0, skip: 0, todo: 0 }
    counts.set(file, c)
    // A skipped test or suite says why: the runner lists the reasons (a skipped suite counts
    // once, its tests never having been seen) and fails under CI=true on a missing backend.
    if (data.skip !== undefined) {
      c.skip++
      yield `${MARK}${JSON.stringify({ kind: 'skip', file, test: names.slice(1).join(' > '), suite: data.details?.type === 'suite', reason: typeof data.skip === 'string' ? data.skip : '(no reason given)' })}\n`
      continue
    }
    // Suites are counted through their tests.
    if (data.details?.type === 'suite') {
      if (type === 'test:fail' && data.details.error?.failureType !== 'subtestsFailed') {
        c.fail++
        yield `${MARK}${JSON.stringify({ kind: 'fail', file, test: names.slice(1).join(' > '), error: describe(data.details.error) })}\n`
      }
      continue
    }
    if (data.todo !== undefined) c.todo++
    else if (type === 'test:pass') c.pass++
    else {
      c.fail++
      yield `${MARK}${JSON.stringify({ kind: 'fail', file, test: names.slice(1).join(' > '), error: describe(data.details.error) })}\n`
    }
  }
}

function describe(error: unknown): string {
  const cause = (error as { cause?: unknown } | undefined)?.cause ?? error
  return inspect(cause, { depth: 4 }).split('\n').slice(0, 40).join('\n')
}
