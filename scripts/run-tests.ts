/**
 * `npm test`: finds every *.test.ts under test/ and src/ (arguments narrow the run: `npm test --
 * test/http`) and runs them in a few long-lived test processes instead of one process per file.
 *
 * A process per file (node --test) paid, per file, about 2 s to load the TypeScript of the
 * service, 0.4 s for a devnet and more for PGlite's first start: about 5 s of 84 files' 14. Here
 * TEST_PROCESSES test processes (3 by default on 2 cores: much of a test is waiting for a socket,
 * a block or a child process) each run file after file (scripts/test/group.ts), each file inside
 * a suite of its own, sharing the loaded code and one devnet (reverted between files by
 * test/support/harness.ts). A process asks this runner for its next file when it finishes one:
 * one queue, longest file first, so no process idles while another still has a backlog.
 *
 * A file that must have a process to itself (it changes process-wide state, or measures the
 * process) says so with a line `// test: own process` and runs alone.
 *
 * The queue is ordered by each file's time in the previous run (.cache/test-times.json), else by
 * the committed estimates of scripts/test/times.json (a clean clone, as CI runs, has no .cache).
 * The output is one line per file; the failures are printed again in full at the end.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { spawn } from 'node:child_process'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { build } from './build.ts'
import { MARK } from './test/reporter.ts'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const timesFile = path.join(root, '.cache', 'test-times.json')
/** Per-file times of a full run, committed: `cp .cache/test-times.json scripts/test/times.json` after one. */
const estimatesFile = path.join(root, 'scripts', 'test', 'times.json')
const DEFAULT_MS = 8_000

function find(dir: string): string[] {
  if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory()) return dir.endsWith('.test.ts') ? [dir] : []
  return readdirSync(dir).flatMap((name) => {
    if (name === 'node_modules' || name.startsWith('.')) return []
    return find(path.join(dir, name))
  })
}

const args = process.argv.slice(2)
// --typecheck (what `npm test` passes): the type check runs beside the tests instead of before them.
const typecheck = args.includes('--typecheck')
const paths = args.filter((arg) => !arg.startsWith('--'))
const roots = paths.length ? paths : ['test', 'src']
const files = [...new Set(roots.flatMap(find))].sort()
if (files.length === 0) {
  console.error(`no test files under ${roots.join(', ')}`)
  process.exit(1)
}

const readTimes = (file: string): Record<string, number> => (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {})
const previous = readTimes(timesFile)
const estimates = readTimes(estimatesFile)
const cost = (file: string) => previous[file] ?? estimates[file] ?? DEFAULT_MS
const ownProcess = (file: string) => /^\/\/ test: own process/m.test(readFileSync(file, 'utf8'))

/**
 * The order files are handed out in: own-process files first (each takes a slot for itself, and
 * started late one would run on after the rest), then the shared ones longest first, so the
 * last to start are the short ones and the slots end close together.
 */
function order(): string[] {
  const alone = files.filter(ownProcess).sort((a, b) => cost(b) - cost(a))
  const shared = files.filter((file) => !ownProcess(file)).sort((a, b) => cost(b) - cost(a))
  return [...alone, ...shared]
}

type FileResult = { file: string; ms: number; pass: number; fail: number; skip: number; todo: number; ok: boolean }
type Failure = { file: string; test: string; error: string }
type Skip = { file: string; test: string; suite: boolean; reason: string }

const parallel = Number(process.env.TEST_PROCESSES ?? 3)
const started = Date.now()
if (build({ ifChanged: true })) console.error(`# built dist/ in ${Date.now() - started} ms`)

const queue = order()
const alone = new Set(queue.filter(ownProcess))
/** `npm run typecheck` in the background (incremental: .cache/tsc), its output kept for the end. */
const typechecked: Promise<{ ok: boolean; output: string; ms: number }> | undefined =
  typecheck && !process.env.TEST_PLAN
    ? new Promise((resolve) => {
        const begun = Date.now()
        const child = spawn('npm', ['run', '--silent', 'typecheck'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] })
        let output = ''
        child.stdout!.on('data', (chunk) => (output += chunk))
        child.stderr!.on('data', (chunk) => (output += chunk))
        child.on('exit', (code) => resolve({ ok: code === 0, output, ms: Date.now() - begun }))
      })
    : undefined
// TEST_PLAN=1: print the order files are handed out in, with their expected times; run nothing.
if (process.env.TEST_PLAN) {
  for (const file of queue) console.log(`${cost(file)} ms${alone.has(file) ? ' (own process)' : ''}: ${file}`)
  process.exit(0)
}
const results: FileResult[] = []
const failures: Failure[] = []
const skips: Skip[] = []
const crashed: string[] = []

/** The next shared file of the queue (own-process files are left for a slot of their own). */
function nextShared(): string | undefined {
  const at = queue.findIndex((file) => !alone.has(file))
  return at < 0 ? undefined : queue.splice(at, 1)[0]
}

let processes = 0
/** Every file given to a process: one never given did not run. */
const handedOut = new Set<string>()

/** One test process: `first` alone if it must be, else `first` and then whatever it asks for. */
function runProcess(first: string): Promise<void> {
  processes++
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [
        '--import', 'tsx',
        // TEST_CPU_PROF=<dir>: a V8 CPU profile of each test process, to see where the suite's time goes.
        ...(process.env.TEST_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(process.env.TEST_CPU_PROF)}`] : []),
        // PostgreSQL's WebAssembly (PGlite) and the face model's run on V8's baseline compiler only:
        // a test process lives a minute, too short for the optimizing tier's compiles to pay back
        // (about 12 % of the processes' CPU; docs/contributors/testing.md). The services started
        // as processes by the tests run as production does.
        '--liftoff-only',
        '--test-force-exit',
        '--test-timeout=300000',
        `--test-reporter=${path.join(root, 'scripts/test/reporter.ts')}`,
        '--test-reporter-destination=stdout',
        path.join(root, 'scripts/test/group.ts'),
        first,
      ],
      // The IPC channel is how a shared process asks for its next file (scripts/test/group.ts).
      { stdio: ['ignore', 'pipe', 'inherit', alone.has(first) ? 'ignore' : 'ipc'] },
    )
    const given = [first]
    handedOut.add(first)
    child.on('message', () => {
      // A process that died just after asking gets nothing (its unfinished files fail the run).
      if (!child.connected) return
      const file = nextShared()
      if (file) {
        given.push(file)
        handedOut.add(file)
      }
      child.send({ file: file ?? null })
    })
    // A send that races the process's death: its exit reports what it had not finished.
    child.on('error', () => {})
    const done = new Set<string>()
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const at = line.indexOf(MARK)
      if (at < 0) return console.log(line)
      const event = JSON.parse(line.slice(at + MARK.length))
      if (event.kind === 'fail') return failures.push(event)
      if (event.kind === 'skip') return skips.push(event)
      done.add(event.file)
      results.push(event)
      const counts = [`${event.pass} passed`, event.fail && `${event.fail} FAILED`, event.skip && `${event.skip} skipped`, event.todo && `${event.todo} todo`].filter(Boolean).join(', ')
      console.log(`${event.ok ? 'ok  ' : 'FAIL'} ${event.file} (${counts}; ${(event.ms / 1000).toFixed(1)} s)`)
    })
    child.on('exit', (code, signal) => {
      // A process that died (or a file that never reported) fails the run visibly.
      for (const file of given) if (!done.has(file)) crashed.push(`${file} (its process ended with ${signal ?? `code ${code}`} before the file finished)`)
      resolve()
    })
  })
}

// The machine's speed, for the summary: a run's time means little without it (the same leg took
// 178 s and 236 s within the hour on one VM whose host slowed it). Timed alone before the tests
// start and after they end (comparable with the reference), and every 5 s while they run (CPU
// time, so the waiting does not count; the suite's load inflates it). Whole runs only: loading
// the yardstick (viem) and timing it cost about 0.5 s and 0.4 s at each end, much of a run of a
// few files.
const speed = paths.length ? undefined : await import('../test/support/machine-speed.ts')
const speedAtStart = speed?.yardstickNow()
const speeds: number[] = []
const sampler = speed && setInterval(() => speeds.push(speed.yardstick().cpuMs), 5_000).unref()

// TEST_PROCESSES slots; each runs processes until the queue is empty.
await Promise.all(
  Array.from({ length: Math.min(parallel, queue.length) }, async () => {
    for (let file = queue.shift(); file; file = queue.shift()) await runProcess(file)
  }),
)

// Every file ran or is reported (a process's exit reports what it was given and did not finish):
// none may vanish from the totals.
for (const file of files) if (!handedOut.has(file)) crashed.push(`${file} (never ran)`)

const types = await typechecked
if (types) console.log(types.ok ? `ok   typecheck (${(types.ms / 1000).toFixed(1)} s)` : `FAIL typecheck\n${types.output}`)

mkdirSync(path.dirname(timesFile), { recursive: true })
writeFileSync(timesFile, `${JSON.stringify({ ...previous, ...Object.fromEntries(results.map((r) => [r.file, r.ms])) }, null, 1)}\n`)

const sum = (key: 'pass' | 'fail' | 'skip' | 'todo') => results.reduce((n, r) => n + r[key], 0)
for (const failure of failures) console.log(`\n✖ ${failure.file} › ${failure.test}\n${failure.error}`)
for (const line of crashed) console.log(`\n✖ ${line}`)
// What did not run, and why: a suite skipped whole counts once (its tests were never seen).
const byReason = new Map<string, Skip[]>()
for (const skip of skips) byReason.set(skip.reason, [...(byReason.get(skip.reason) ?? []), skip])
for (const [reason, list] of byReason) {
  const suites = list.filter((s) => s.suite).length
  const what = [list.length - suites && `${list.length - suites} tests`, suites && `${suites} whole suites`].filter(Boolean).join(' and ')
  console.log(`\n- skipped ${what}: ${reason}\n    ${[...new Set(list.map((s) => s.file))].join('\n    ')}`)
}
// CI has PostgreSQL, Redis and Chromium: a test that needs one of them and was skipped means the
// environment lost it, and the suite must not pass with less than it claims.
const missingInCi = process.env.CI === 'true' ? skips.filter((s) => s.reason.startsWith('requires ')) : []
for (const skip of missingInCi) console.log(`\n✖ ${skip.file} › ${skip.test || '(the file)'}: skipped under CI=true (${skip.reason})`)
console.log(
  `\n# ${results.length} files, ${sum('pass') + sum('fail') + sum('skip') + sum('todo')} tests: ${sum('pass')} passed, ${sum('fail')} failed, ${sum('skip')} skipped (${skips.filter((x) => x.suite).length} suites), ${sum('todo')} todo; ` +
    `${processes} processes (${parallel} at a time), ${((Date.now() - started) / 1000).toFixed(1)} s`,
)
clearInterval(sampler)
if (speed && speedAtStart !== undefined) {
  console.log(
    `# machine speed: the yardstick (300 keccaks of 1 KB, test/support/machine-speed.ts) took ${speedAtStart.toFixed(0)} ms of CPU alone at the start, ${speed.yardstickNow().toFixed(0)} ms at the end` +
      `${speeds.length ? `, a median ${speed.median(speeds).toFixed(0)} ms under the suite's load (${speeds.length} samples)` : ''}; ${speed.REFERENCE_MS} ms alone on the machine the performance bounds were set on`,
  )
}
process.exit(failures.length || crashed.length || missingInCi.length || results.some((r) => !r.ok) || (types && !types.ok) ? 1 : 0)
