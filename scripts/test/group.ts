/**
 * One test process for many test files: each file is imported inside a suite of its own, so its
 * top-level hooks (before/after) wrap only its tests, and the files run one after another,
 * sharing what a process pays once: loading the code (about 2 s of TypeScript), the devnet
 * (reverted to its deployed state for each file by the harness) and PGlite's WebAssembly.
 *
 * A file is imported only when the one before it has finished. Importing them all at the start
 * (as a suite per file whose body imports it would) evaluates every file's modules at once and
 * blocked the first tests' event loop for over 1.5 s. The next suite is added to the root from
 * the last one's final `after` hook, in the root's async scope (else node:test would nest it in the
 * suite that just ended).
 *
 * Which file comes next: the ones named on the command line, then, when the process was started
 * by scripts/run-tests.ts with an IPC channel, whichever file the runner hands out next (the
 * runner keeps one queue, longest first, for all its processes: none sits idle while another
 * still has a backlog). `node --import tsx --test-reporter=… scripts/test/group.ts <files>`
 * runs the named files alone.
 */
import { after, describe } from 'node:test'
import { AsyncResource } from 'node:async_hooks'
import path from 'node:path'
import { pathToFileURL } from 'node:url'

process.env.B2C_TEST_SHARED_PROCESS = '1'

const named = process.argv.slice(2)
const top = new AsyncResource('test-group')

/** The next file to run, or undefined when there is none. */
async function nextFile(): Promise<string | undefined> {
  if (named.length) return named.shift()
  if (!process.send || !process.connected) return undefined
  const reply = new Promise<string | undefined>((resolve) => {
    const answer = (message: { file?: string } | undefined) => {
      process.off('message', answer)
      process.off('disconnect', answer)
      resolve(message?.file)
    }
    process.on('message', answer)
    process.on('disconnect', answer)
  })
  process.send({ want: 'file' })
  const file = await reply
  if (!file) process.disconnect()
  return file
}

function run(file: string): void {
  describe(file, async () => {
    try {
      await import(pathToFileURL(path.resolve(file)).href)
    } finally {
      // Registered after the file's own hooks, so it runs after them: the next file is not
      // loaded while this one still tears down.
      after(async () => {
        const following = await nextFile()
        if (following) top.runInAsyncScope(() => run(following))
      })
    }
  })
}

const first = await nextFile()
if (first) run(first)
