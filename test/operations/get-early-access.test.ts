import { test } from 'node:test'
import assert from 'node:assert/strict'
import { useApp } from '../support/harness.ts'
import { getEarlyAccessInfo } from '../../src/operations/early-access/get-early-access.ts'

// The example of docs/contributors/adding-an-operation.md: one read, tested through the app (as a user
// calls it) and through its handler given exactly the ports it declares.
const app = useApp()

test('GET /api/early/register describes the sign-up with the deployed contracts and the chain', async () => {
  const response = await app.http.inject({ method: 'GET', url: '/api/early/register' })
  assert.equal(response.statusCode, 200)
  const body = response.json()
  assert.equal(body.contracts.token, app.devnet.info.contracts.token)
  assert.equal(body.contracts.nft, app.devnet.info.contracts.nft)
  assert.equal(body.registration.signTypedData.primaryType, 'EarlyAccessRegistration')
  assert.match(body.registration.endpoint, /\/api\/early\/register$/)
})

test('the handler needs only the ports it declares: the chain and the base URL', async () => {
  const ports = { chain: app.ctx.chain, baseUrl: () => 'https://chad.example' }
  const answer = await getEarlyAccessInfo.handler(ports, {}, { headers: {}, transport: 'http', requestId: 'test' })
  assert.deepEqual(getEarlyAccessInfo.uses, ['chain', 'baseUrl'])
  assert.equal((answer as { registration: { endpoint: string } }).registration.endpoint, 'https://chad.example/api/early/register')
})
