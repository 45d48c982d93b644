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

test('rules spanning several variables are rejected by loadConfig, naming the missing variable', () => {
  const rejects = (env: Record<string, string>, variable: string, because: RegExp) =>
    assert.throws(() => loadConfig(env), (error: unknown) => {
      assert.ok(error instanceof ConfigError, `ConfigError for ${JSON.stringify(env)}`)
      assert.match(error.message, new RegExp(`${variable}: required when`))
      assert.match(error.message, because)
      return true
    })
  rejects({ IMAGE_PROVIDER: 'replicate' }, 'REPLICATE_API_TOKEN', /IMAGE_PROVIDER=replicate/)
  rejects({ IMAGE_PROVIDER: 'openai' }, 'OPENAI_API_KEY', /IMAGE_PROVIDER=openai/)
  rejects({ IPFS_PROVIDER: 'pinata' }, 'PINATA_JWT', /IPFS_PROVIDER=pinata/)
  rejects({ IPFS_PROVIDER: 'kubo' }, 'KUBO_RPC_URL', /IPFS_PROVIDER=kubo/)
  const production = { RPC_URL: 'https://rpc.example', CONTRACTS_FILE: 'contracts.json' }
  rejects(production, 'MINTER_PRIVATE_KEY', /CONTRACTS_FILE/)
  rejects(production, 'RELAYER_PRIVATE_KEY', /CONTRACTS_FILE/)
  rejects(production, 'FACILITATOR_PRIVATE_KEY', /FACILITATOR_URL/)
  const keys = { MINTER_PRIVATE_KEY: `0x${'11'.repeat(32)}`, RELAYER_PRIVATE_KEY: `0x${'12'.repeat(32)}` }
  rejects({ CONTRACTS_FILE: 'contracts.json', ...keys, FACILITATOR_URL: 'https://facilitator.example' }, 'RPC_URL', /CONTRACTS_FILE/)

  // The same variables, complete, are accepted.
  assert.equal(loadConfig({ IMAGE_PROVIDER: 'replicate', REPLICATE_API_TOKEN: 'r8_x' }).IMAGE_PROVIDER, 'replicate')
  assert.equal(loadConfig({ IPFS_PROVIDER: 'kubo', KUBO_RPC_URL: 'http://127.0.0.1:5001' }).IPFS_PROVIDER, 'kubo')
  assert.ok(loadConfig({ ...production, ...keys, FACILITATOR_URL: 'https://facilitator.example' }).CONTRACTS_FILE)
  assert.ok(loadConfig({ ...production, ...keys, FACILITATOR_PRIVATE_KEY: `0x${'13'.repeat(32)}` }).CONTRACTS_FILE)
  // A secret the rule asks for is never echoed, even when another rule fails.
  const token = 'r8_secret_token_value'
  assert.throws(() => loadConfig({ IMAGE_PROVIDER: 'replicate', REPLICATE_API_TOKEN: token, IPFS_PROVIDER: 'pinata' }), (error: unknown) => {
    assert.match(String(error), /PINATA_JWT/)
    assert.ok(!String(error).includes(token))
    return true
  })
})

test('a malformed URL that may hold a credential is named with its scheme and host only', () => {
  const cases = {
    DATABASE_URL: 'postgres://postgres:SuperSecretPw7@127.0.0.1:99999/explorec',
    REDIS_URL: 'redis://:RedisSecret2@127.0.0.1:99999',
    RPC_URL: 'https://rpc.example:99999/v2/RpcKeyInPath',
    FACILITATOR_URL: 'https://user:Fac#Secret@facilitator.example:99999/x',
  }
  for (const [name, value] of Object.entries(cases)) {
    const error = (() => {
      try {
        loadConfig({ [name]: value, ...(name === 'RPC_URL' ? { FACILITATOR_PRIVATE_KEY: '0x' + '1'.repeat(64) } : {}) })
      } catch (e) {
        return e as Error
      }
      return undefined
    })()
    assert.ok(error instanceof ConfigError, name)
    assert.match(error.message, new RegExp(`${name}: `))
    assert.doesNotMatch(error.message, /Secret|RpcKeyInPath|explorec/, `${name} shows no credential: ${error.message}`)
    assert.match(error.message, /99999/, 'the host and port are shown')
  }
})

test('the logger never writes a configured URL\'s credentials: not in messages, not in errors', async () => {
  const { createLogger } = await import('../../src/config/logger.ts')
  const lines: string[] = []
  const destination = { write: (line: string) => void lines.push(line) }
  const rpc = 'https://user:RpcPassword@rpc.example/v2/RpcKeyInPath'
  const log = createLogger('info', { destination, secretUrls: [rpc, 'postgres://svc:DbPassword@db.example:5432/prod'] })
  // As viem words a failed request: the URL without its user part, the path with the key.
  const failure = new Error('HTTP request failed.\n\nURL: https://rpc.example/v2/RpcKeyInPath\nRequest body: {}')
  log.warn({ err: failure }, 'reading the head failed at https://rpc.example/v2/RpcKeyInPath')
  log.child({ component: 'indexer' }).error({ err: new Error('connect to postgres://svc:DbPassword@db.example:5432/prod failed') }, 'down')
  const text = lines.join('')
  assert.equal(lines.length, 2)
  assert.doesNotMatch(text, /RpcKeyInPath|RpcPassword|DbPassword/)
  assert.match(text, /https:\/\/\*\*\*@rpc\.example\/…/)
  assert.match(text, /db\.example:5432/)
})
