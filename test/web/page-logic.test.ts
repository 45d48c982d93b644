import { test } from 'node:test'
import assert from 'node:assert/strict'
import Fastify from 'fastify'
import { pino } from 'pino'
import { mountWeb } from '../../src/web/routes.ts'
import { buildOpenApi } from '../../src/operations/runtime/openapi.ts'
import { operations } from '../../src/operations/index.ts'
import { requireWalletSignature, signTypedDataTemplate } from '../../src/operations/wallet-signature.ts'
import { buildApiReference } from '../../web/lib/api-reference.ts'
import { addBurn, burnSeries, latestBurns, type Burn, type BurnEvent } from '../../web/lib/burn-series.ts'
import { curlCommand, referralFromQuery, registrationBody, registrationTypedData, typedDataJson } from '../../web/lib/early-signup.ts'
import { testAccount } from '../support/accounts.ts'

/** The page's pure parts, against what the service really serves and checks. */

test('the API reference lists every operation of the OpenAPI document with its parameters, body and responses', () => {
  const reference = buildApiReference(buildOpenApi(operations, { baseUrl: 'http://127.0.0.1:3000' }) as never)
  const listed = reference.groups.flatMap((g) => g.operations)
  assert.equal(reference.count, operations.length)
  assert.deepEqual(listed.map((op) => op.id).sort(), operations.map((op) => op.id).sort())
  const gallery = listed.find((op) => op.id === 'get_gallery')!
  assert.deepEqual(
    { method: gallery.method, path: gallery.path, limit: gallery.parameters.find((p) => p.name === 'limit') },
    { method: 'GET', path: '/api/gallery', limit: { name: 'limit', in: 'query', required: false, type: 'integer (1 to 50)', description: 'Page size, 1 to 50' } },
  )
  const register = listed.find((op) => op.id === 'register_early_access')!
  assert.equal(register.body?.contentType, 'application/json')
  assert.deepEqual(register.body?.fields.filter((f) => f.required).map((f) => f.name).sort(), ['issuedAt', 'signature', 'wallet'])
  for (const status of ['200', '400', '403', '502']) assert.ok(register.responses.some((r) => r.status === status), `the ${status} response is listed`)
  assert.match(register.responses.find((r) => r.status === '403')!.description, /NOT_ELIGIBLE/)
})

const event = (overrides: Partial<BurnEvent>): BurnEvent => ({
  txHash: '0xaa', burner: '0x0000000000000000000000000000000000000001', tokenId: null, cid: null, ipfsUrl: null,
  source: 'transfer', amount: 1000, timestamp: '2026-11-25T10:00:00.000Z', ...overrides,
})

test('a looksmaxx reported twice (transfer mined, portrait minted) is one burn of 225,000; the chart accumulates in time order', () => {
  const burns = new Map<string, Burn>()
  addBurn(burns, event({ txHash: '0xBB', amount: 112_500, timestamp: '2026-11-25T10:01:00.000Z' }))
  addBurn(burns, event({ txHash: '0xaa', amount: 1000, timestamp: '2026-11-25T10:00:00.000Z' }))
  addBurn(burns, event({ txHash: '0xbb', amount: 225_000, tokenId: '7', source: 'burn-to-create', timestamp: '2026-11-25T10:01:05.000Z' }))
  addBurn(burns, event({ txHash: '0xcc', amount: null, tokenId: '8', source: 'chain', timestamp: '2026-11-25T10:02:00.000Z' }))
  const t = (iso: string) => Date.parse(iso) / 1000
  assert.deepEqual(burnSeries(burns.values()), [
    [t('2026-11-25T10:00:00.000Z'), t('2026-11-25T10:01:00.000Z'), t('2026-11-25T10:02:00.000Z')],
    [1000, 226_000, 226_000],
    [1, 2, 3],
  ])
  assert.deepEqual(
    latestBurns(burns.values(), 2).map((b) => [b.txHash, b.amount, b.tokenId, b.source]),
    [['0xcc', 0, '8', 'chain'], ['0xbb', 225_000, '7', 'burn-to-create']],
  )
})

test('the referral code of a link is used only when it is a code', () => {
  assert.deepEqual(referralFromQuery('?ref=abc123demo'), { code: 'abc123demo', invalid: null })
  assert.deepEqual(referralFromQuery('?ref=ABC123Demo'), { code: 'abc123demo', invalid: null })
  assert.deepEqual(referralFromQuery(''), { code: null, invalid: null })
  assert.deepEqual(referralFromQuery('?ref=%3Cscript%3E'), { code: null, invalid: '<script>' })
  assert.deepEqual(referralFromQuery('?ref=abc'), { code: null, invalid: 'abc' })
})

test('what the page signs (in the browser or as JSON for a command-line signer) passes the service\'s signature check', async () => {
  const account = testAccount(4).account
  const template = signTypedDataTemplate('EarlyAccessRegistration', {})
  const issuedAt = Math.floor(Date.now() / 1000)
  const body = registrationBody({ wallet: account.address, twitter: ' @chad ', tweetUrl: '', referralCode: 'abc123demo' }, issuedAt)
  assert.deepEqual(body, { wallet: account.address, twitter: '@chad', referralCode: 'abc123demo', issuedAt }, 'empty fields are left out, the rest trimmed')

  const typed = registrationTypedData(template, body)
  const fromBrowser = await account.signTypedData(typed as never)
  const { types, domain, primaryType, message } = JSON.parse(typedDataJson(typed))
  delete types.EIP712Domain
  const fromJson = await account.signTypedData({ types, domain, primaryType, message })
  for (const signature of [fromBrowser, fromJson]) {
    await requireWalletSignature({
      primaryType: 'EarlyAccessRegistration',
      wallet: account.address,
      message: { twitter: '@chad', tweetUrl: '', referralCode: 'abc123demo' },
      issuedAt,
      signature,
    })
  }
})

test('the curl command is the POST as written, quoted for a POSIX shell', () => {
  const command = curlCommand('http://127.0.0.1:3000/api/early/register', { wallet: '0xYourWallet', tweetUrl: "https://x.com/it's", issuedAt: 1 })
  assert.equal(
    command,
    `curl -X POST 'http://127.0.0.1:3000/api/early/register' \\\n  -H 'content-type: application/json' \\\n  -d '{"wallet":"0xYourWallet","tweetUrl":"https://x.com/it'\\''s","issuedAt":1,"signature":"0x<signature>"}'`,
  )
})

test('a bundle that fails to build leaves the server up without the pages, and says why in the log', async () => {
  const logged: string[] = []
  const log = pino({ level: 'info' }, { write: (line: string) => logged.push(JSON.parse(line).msg) })
  const app = Fastify()
  app.get('/api/ping', async () => ({ ok: true }))
  mountWeb({ log, load: async () => { throw new Error('esbuild is missing') } })(app)
  await app.ready()
  assert.equal((await app.inject('/api/ping')).statusCode, 200)
  assert.equal((await app.inject('/')).statusCode, 404)
  assert.deepEqual(logged, ['could not bundle the web page; / and /early are not served'])
  await app.close()
})
