import { test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { createApp } from '../../src/app.ts'
import { createLogger } from '../../src/config/logger.ts'
import { releaseDevnet, testConfig, testDevnet } from '../support/harness.ts'
import { pooledPglite } from '../support/pglite-pool.ts'

test('a hot key without ETH is named in a warning at start, a funded one is not, and the key itself never is', async () => {
  const devnet = await testDevnet()
  const dataDir = await mkdtemp(path.join(tmpdir(), 'b2c-unfunded-'))
  const key = generatePrivateKey()
  const lines: string[] = []
  const log = createLogger('warn', { destination: { write: (line: string) => void lines.push(line) } })
  const app = await createApp(testConfig({ DATA_DIR: dataDir, RPC_URL: devnet.url, RELAYER_PRIVATE_KEY: key }), { log, db: pooledPglite() })
  try {
    const address = privateKeyToAccount(key).address
    for (let i = 0; i < 100 && !lines.some((line) => line.includes(address)); i++) await new Promise((resolve) => setTimeout(resolve, 50))
    const warning = lines.find((line) => line.includes(address))
    assert.ok(warning, 'the unfunded relayer key is reported')
    assert.match(warning, /RELAYER_PRIVATE_KEY.*holds no ETH/)
    assert.ok(!lines.some((line) => line.includes('MINTER_PRIVATE_KEY')), 'the funded minter key is not')
    assert.ok(!lines.some((line) => line.includes(key.slice(2))), 'the private key is never written')
  } finally {
    await app.close()
    await rm(dataDir, { recursive: true, force: true })
    await releaseDevnet()
  }
})
