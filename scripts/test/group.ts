/**
 * One test process for several test files: each file is imported inside a suite of its own, so
 * its top-level hooks (before/after) wrap only its tests and the files run one after another,
 * sharing what a process pays once: loading the code (about 2 s of TypeScript), the devnet
 * (reverted to its deployed state for each file by the harness) and PGlite's WebAssembly.
 * Run by scripts/run-tests.ts: `node --import tsx --test-reporter=… scripts/test/group.ts <files>`.
 */
import { describe } from 'node:test'
import path from 'node:path'
import { pathToFileURL } from 'node:url'

process.env.B2C_TEST_SHARED_PROCESS = '1'
for (const file of process.argv.slice(2)) {
  describe(file, async () => {
    await import(pathToFileURL(path.resolve(file)).href)
  })
}
