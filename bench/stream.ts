/**
 * 5,000 event-stream clients on one service process: memory used, and the delay from a burn
 * being published to the last client receiving it.
 */
import { spawn } from 'node:child_process'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { startDevnet } from '../src/devnet/start-devnet.ts'
import { loadConfig } from '../src/config/load.ts'
import { createApp } from '../src/app.ts'
import { publishEvent } from '../src/events/publish-event.ts'
import { table } from './support.ts'
import { runDate, yesNo, type BenchResult } from './summary.ts'

/** Publish → last client, p99 (issue 6). */
const TARGET_P99_MS = 500

export async function benchStream(clients = 5000, burns = 10): Promise<BenchResult> {
  const devnet = await startDevnet({ host: '127.0.0.1', port: 0 })
  const dataDir = await mkdtemp(path.join(tmpdir(), 'b2c-bench-'))
  const app = await createApp(loadConfig({ PORT: '0', LOG_LEVEL: 'silent', RPC_URL: devnet.url, DATA_DIR: dataDir, SSE_HEARTBEAT_MS: '15000' }))
  const url = await app.listen()
  await app.ctx.indexer.stop()
  try {
    global.gc?.()
    const before = process.memoryUsage()
    const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./stream-clients.ts', import.meta.url)), `${url}/api/events`, String(clients), String(burns)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]()
    const ready = JSON.parse((await lines.next()).value as string) as { connected: number }
    await new Promise((r) => setTimeout(r, 500))
    const during = process.memoryUsage()
    for (let i = 0; i < burns; i++) {
      await publishEvent(app.ctx, 'burn', { tokenId: String(i), txHash: `0x${String(i).padStart(64, '0')}`, publishedAt: Date.now() })
      await new Promise((r) => setTimeout(r, 300))
    }
    const result = JSON.parse((await lines.next()).value as string) as { connected: number; complete: number; deliveries: number; p50: number; p99: number; max: number }
    const mb = (n: number) => (n / 1024 / 1024).toFixed(0)
    const headline = {
      name: 'stream',
      figure: `publish → last of ${ready.connected} clients, p99 ${result.p99} ms (${result.complete} got every burn)`,
      baseline: '',
      ratio: '',
      target: `p99 < ${TARGET_P99_MS} ms`,
      met: yesNo(result.p99 < TARGET_P99_MS && result.complete === clients),
      date: runDate(),
    }
    const section = table([
      { measure: 'clients connected', value: `${ready.connected} of ${clients}` },
      { measure: 'clients that got every burn', value: `${result.complete}` },
      { measure: 'deliveries (burns × clients)', value: `${result.deliveries}` },
      { measure: 'publish → client delay p50', value: `${result.p50} ms` },
      { measure: 'publish → client delay p99', value: `${result.p99} ms` },
      { measure: 'publish → last client (max)', value: `${result.max} ms` },
      { measure: 'server RSS before → with clients', value: `${mb(before.rss)} → ${mb(during.rss)} MB (+${mb(during.rss - before.rss)} MB)` },
      { measure: 'server heap before → with clients', value: `${mb(before.heapUsed)} → ${mb(during.heapUsed)} MB` },
    ])
    return { section, headlines: [headline] }
  } finally {
    await app.close()
    await devnet.close()
    await rm(dataDir, { recursive: true, force: true })
  }
}
