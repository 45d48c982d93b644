import { test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { freshDevnet, useDevnet } from '../support/harness.ts'
import { loadConfig } from '../../src/config/load.ts'
import { createApp } from '../../src/app.ts'
import { setMeta, getMeta } from '../../src/store/meta.ts'

// The first chain is the process's devnet; the second a fresh one (its boot id is the point).
const first = useDevnet()

test('the embedded database follows the devnet: kept across service restarts, cleared when the chain starts afresh', async () => {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'b2c-boot-'))
  try {
    const config = (rpc: string) => loadConfig({ PORT: '0', LOG_LEVEL: 'silent', RPC_URL: rpc, DATA_DIR: dataDir })
    let app = await createApp(config(first.url))
    await setMeta(app.ctx.db, 'probe', 'written on the first chain')
    await app.close()

    app = await createApp(config(first.url))
    assert.equal(await getMeta(app.ctx.db, 'probe'), 'written on the first chain', 'a service restart keeps the data')
    await app.close()

    const second = await freshDevnet()
    try {
      app = await createApp(config(second.url))
      assert.equal(await getMeta(app.ctx.db, 'probe'), undefined, 'a fresh chain starts a fresh database')
      assert.equal(await getMeta(app.ctx.db, 'devnet_boot_id'), second.info.bootId)
      await app.close()
    } finally {
      await second.close()
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true })
  }
})
