import { test } from 'node:test'
import assert from 'node:assert/strict'
import { loadConfig, ConfigError } from '../../src/config/load.ts'

test('no configuration gives the embedded defaults', () => {
  const config = loadConfig({})
  assert.equal(config.HOST, '127.0.0.1')
  assert.equal(config.PORT, 3000)
  assert.equal(config.DEVNET_RPC_PORT, 8545)
  assert.equal(config.RPC_URL, undefined)
  assert.equal(config.DATABASE_URL, undefined)
  assert.equal(config.IMAGE_PROVIDER, 'local')
  assert.equal(config.publicBaseUrl, 'http://127.0.0.1:3000')
})

test('a wrong value stops start-up naming the variable and what it got', () => {
  assert.throws(() => loadConfig({ PORT: 'eighty' }), (error: unknown) => {
    assert.ok(error instanceof ConfigError)
    assert.match(error.message, /PORT/)
    assert.match(error.message, /eighty/)
    return true
  })
  assert.throws(() => loadConfig({ RPC_URL: 'not a url' }), /RPC_URL/)
  assert.throws(() => loadConfig({ IMAGE_PROVIDER: 'dalle' }), /IMAGE_PROVIDER/)
})

test('a malformed secret is named but never echoed', () => {
  const key = '0x1234-not-a-key-but-still-secret'
  assert.throws(() => loadConfig({ MINTER_PRIVATE_KEY: key }), (error: unknown) => {
    assert.match(String(error), /MINTER_PRIVATE_KEY/)
    assert.ok(!String(error).includes(key))
    return true
  })
})

test('secrets print as a placeholder', () => {
  const key = `0x${'ab'.repeat(32)}`
  const config = loadConfig({ MINTER_PRIVATE_KEY: key })
  assert.equal(config.MINTER_PRIVATE_KEY!.reveal(), key)
  assert.ok(!JSON.stringify(config).includes(key))
  assert.ok(!String(config.MINTER_PRIVATE_KEY).includes(key))
})
