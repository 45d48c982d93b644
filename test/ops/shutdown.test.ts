import { test } from 'node:test'
import assert from 'node:assert/strict'
import http from 'node:http'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { useDevnet } from '../support/harness.ts'
import { startServiceProcess } from '../support/service-process.ts'
import { createTestDatabase } from '../support/postgres.ts'
import { TEST_DATABASE_URL, needsPostgres, onlyInLeg } from '../support/env.ts'
import { openDb } from '../../src/store/db.ts'
import { acquireLease } from '../../src/store/indexer-leases.ts'

/** A JSON-RPC pass-through that can hold every request until told to let them go. */
async function startHoldingProxy(target: string) {
  let holding = false
  let held: Array<() => void> = []
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    if (holding) await new Promise<void>((resolve) => held.push(resolve))
    const upstream = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body: Buffer.concat(chunks) })
    res.writeHead(upstream.status, { 'content-type': 'application/json' }).end(Buffer.from(await upstream.arrayBuffer()))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    hold: () => void (holding = true),
    heldCount: () => held.length,
    release() {
      holding = false
      for (const resolve of held.splice(0)) resolve()
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

const devnet = useDevnet()

test('SIGTERM: stops accepting, finishes the request in flight, closes stream clients with a close event, releases the indexer lease', { skip: onlyInLeg('postgres', needsPostgres), timeout: 400_000 }, async () => {
  const database = await createTestDatabase()
  const proxy = await startHoldingProxy(devnet.url)
  const dataDir = await mkdtemp(path.join(tmpdir(), 'b2c-shutdown-'))
  let service: Awaited<ReturnType<typeof startServiceProcess>> | undefined
  let db: Awaited<ReturnType<typeof openDb>> | undefined
  try {
    service = await startServiceProcess({ RPC_URL: proxy.url, DATABASE_URL: database.url, DATA_DIR: dataDir, INDEXER_POLL_MS: '100' })
    // Opened once the service has migrated the database.
    db = await openDb({ url: database.url })
    // The service's indexer holds the shared lease: another instance would wait its turn.
    for (let i = 0; i < 200 && (await db.query('SELECT owner FROM indexer_leases')).rows.length === 0; i++) await new Promise((r) => setTimeout(r, 100))
    assert.equal(await acquireLease(db, 'main', 'another-instance', 10_000), false, 'the running service holds the indexer lease')

    const stream = await fetch(`${service.url}/api/events`)
    assert.equal(stream.status, 200)
    const streamText = stream.text()

    proxy.hold()
    const inFlight = fetch(`${service.url}/api/wallet?address=0x000000000000000000000000000000000000dEaD`).then(async (r) => ({ status: r.status, body: (await r.json()) as any }))
    for (let i = 0; i < 200 && proxy.heldCount() === 0; i++) await new Promise((r) => setTimeout(r, 25))
    assert.ok(proxy.heldCount() > 0, 'the wallet read is waiting for the RPC')

    service.child.kill('SIGTERM')
    // The stream ends at once with a close event telling the client to reconnect.
    const events = await streamText
    assert.match(events, /event: close\ndata: \{"reason":"shutdown","reconnect":true\}/)
    // New connections are refused while the request in flight still runs.
    const late = await fetch(`${service.url}/api/bridge`).then((r) => r.status, () => 'refused')
    assert.ok(late === 'refused' || late === 503, `a new request after SIGTERM: ${late}`)

    proxy.release()
    const answered = await inFlight
    assert.equal(answered.status, 200, JSON.stringify(answered.body))
    assert.equal(answered.body.address, '0x000000000000000000000000000000000000dEaD')
    assert.equal(await service.exited, 0, 'a clean exit')

    // The lease was given up, not left to expire: another instance takes over at once.
    assert.deepEqual((await db.query('SELECT owner FROM indexer_leases')).rows, [])
    assert.equal(await acquireLease(db, 'main', 'another-instance', 10_000), true)
    assert.deepEqual((await db.query('SELECT id FROM submissions WHERE lease_owner IS NOT NULL')).rows, [], 'no submission lease left behind')
  } finally {
    proxy.release()
    await service?.stop()
    await db?.close()
    await proxy.close()
    await database.drop()
    await rm(dataDir, { recursive: true, force: true })
  }
})
