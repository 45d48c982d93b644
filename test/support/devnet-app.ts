import { before, after } from 'node:test'
import { buildApp, testDevnet, releaseDevnet, type AppOptions, type TestApp, type TestDevnet } from './harness.ts'

/**
 * The fixture of the older suites, now on the harness: the process's devnet and the service
 * (createApp, PGlite from the migrated template) in front of it. `fixture.app.url` serves the
 * tests that fetch over the socket; `fixture.app.get/post` go through inject.
 */
export function useDevnetApp(options: AppOptions = {}) {
  const fixture = {} as { devnet: TestDevnet; app: TestApp & { stop(): Promise<void> } }
  before(async () => {
    fixture.devnet = await testDevnet()
    fixture.app = await buildApp(fixture.devnet, options)
  })
  after(async () => {
    await fixture.app?.stop()
    await releaseDevnet()
  })
  return fixture
}
