/**
 * `npm test`: finds every *.test.ts under test/ and src/ (arguments narrow the run: `npm test --
 * test/http`) and runs them in a few long-lived test processes instead of one process per file.
 *
 * A process per file (node --test) paid, per file, about 2 s to load the TypeScript of the
 * service, 0.4 s for a devnet and more for PGlite's first start: about 5 s of 84 files' 14. Here
 * the files are dealt into groups, each group one process (scripts/test/group.ts) that imports
 * its files one after another, each inside a suite of its own, sharing the loaded code and one
 * devnet (reverted between files by test/support/harness.ts). TEST_PROCESSES groups run at once
 * (3 by default on 2 cores: much of a test is waiting for a socket, a block or a child process).
 *
 * A file that must have a process to itself (it changes process-wide state, or measures the
 * process) says so with a line `// test: own process` and runs alone.
 *
 * Groups are balanced by each file's time in the previous run (.cache/test-times.json), else by
 * the committed estimates of scripts/test/times.json (a clean clone, as CI runs, has no
 * .cache: balanced blind, one process could get every slow file and run long after the others).
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

/** Jobs of the pool: each own-process file alone, the rest dealt into groups of similar time. */
function plan(parallel: number): string[][] {
  const alone = files.filter(ownProcess).map((file) => [file])
  const shared = files.filter((file) => !ownProcess(file)).sort((a, b) => cost(b) - cost(a))
  const total = shared.reduce((sum, file) => sum + cost(file), 0)
  // Two groups per process slot, so the pool can even out what the estimates get wrong. One
  // per slot saved ~18 s of boots but a process imports all its files at once (scripts/test/group.ts),
  // and with twice the files that blocked its first tests' event loop for over 1.5 s.
  const count = Math.max(1, Math.min(shared.length, parallel * 2, Math.ceil(total / 20_000)))
  const groups = Array.from({ length: count }, () => ({ files: [] as string[], ms: 0 }))
  for (const file of shared) {
    const lightest = groups.reduce((a, b) => (b.ms < a.ms ? b : a))
    lightest.files.push(file)
    lightest.ms += cost(file)
  }
  const jobCost = (job: string[]) => job.reduce((sum, file) => sum + cost(file), 0)
  return [...alone, ...groups.map((g) => g.files.sort()).filter((g) => g.length)].sort((a, b) => jobCost(b) - jobCost(a))
}

type FileResult = { file: string; ms: number; pass: number; fail: number; skip: number; todo: number; ok: boolean }
type Failure = { file: string; test: string; error: string }
type Skip = { file: string; test: string; suite: boolean; reason: string }

const parallel = Number(process.env.TEST_PROCESSES ?? 3)
const started = Date.now()
if (build({ ifChanged: true })) console.error(`# built dist/ in ${Date.now() - started} ms`)

const jobs = plan(parallel)
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
// TEST_PLAN=1: print the processes and their files, run nothing.
if (process.env.TEST_PLAN) {
  for (const job of jobs) console.log(`${job.reduce((sum, file) => sum + cost(file), 0)} ms: ${job.join(' ')}`)
  process.exit(0)
}
const results: FileResult[] = []
const failures: Failure[] = []
const skips: Skip[] = []
const crashed: string[] = []

function runJob(job: string[]): Promise<void> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [
        '--import', 'tsx',
        // TEST_CPU_PROF=<dir>: a V8 CPU profile of each test process, to see where the suite's time goes.
        ...(process.env.TEST_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(process.env.TEST_CPU_PROF)}`] : []),
        '--test-force-exit',
        '--test-timeout=300000',
        `--test-reporter=${path.join(root, 'scripts/test/reporter.ts')}`,
        '--test-reporter-destination=stdout',
        path.join(root, 'scripts/test/group.ts'),
        ...job,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    )
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
      for (const file of job) if (!done.has(file)) crashed.push(`${file} (its process ended with ${signal ?? `code ${code}`} before the file finished)`)
      resolve()
    })
  })
}

const queue = [...jobs]
await Promise.all(
  Array.from({ length: Math.min(parallel, queue.length) }, async () => {
    for (let job = queue.shift(); job; job = queue.shift()) await runJob(job)
  }),
)

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
    `${jobs.length} processes (${parallel} at a time), ${((Date.now() - started) / 1000).toFixed(1)} s`,
)
process.exit(failures.length || crashed.length || missingInCi.length || results.some((r) => !r.ok) || (types && !types.ok) ? 1 : 0)
