import { startDevnet } from '../../src/devnet/start-devnet.ts'

/** One devnet per test file, in process, on a free port of 127.0.0.1. */
export async function startTestDevnet() {
  return startDevnet({ host: '127.0.0.1', port: 0 })
}
