import { before, after } from 'node:test'
import { startTestDevnet } from './devnet.ts'
import { startTestApp, type TestApp } from './app.ts'

/**
 * The usual fixture of a test file: a fresh devnet and the service in front of it, started
 * before the tests and stopped after them.
 */
export function useDevnetApp(options: Omit<Parameters<typeof startTestApp>[0], 'rpcUrl'> = {}) {
  const fixture = {} as { devnet: Awaited<ReturnType<typeof startTestDevnet>>; app: TestApp }
  before(async () => {
    fixture.devnet = await startTestDevnet()
    fixture.app = await startTestApp({ ...options, rpcUrl: fixture.devnet.url })
  })
  after(async () => {
    await fixture.app?.stop()
    await fixture.devnet?.close()
  })
  return fixture
}
