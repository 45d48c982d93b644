import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Validator } from '@seriousme/openapi-schema-validator'
import { useDevnetApp } from '../support/devnet-app.ts'
import { getJson } from '../support/app.ts'
import { operations } from '../../src/operations/index.ts'

const fixture = useDevnetApp()

test('the OpenAPI document validates as OpenAPI 3.1', async () => {
  const { status, body } = await getJson(`${fixture.app.url}/.well-known/openapi.json`)
  assert.equal(status, 200)
  assert.equal(body.openapi, '3.1.0')
  assert.equal(body.info.version, '1.0.0')
  const validator = new Validator()
  const result = await validator.validate(body)
  assert.equal(result.valid, true, JSON.stringify(result.errors, null, 2))
  assert.equal(validator.version, '3.1')
})

test('its paths and methods are exactly the registry routes', async () => {
  const { body } = await getJson(`${fixture.app.url}/.well-known/openapi.json`)
  const documented = Object.entries(body.paths as Record<string, Record<string, { operationId: string }>>)
    .flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => `${method.toUpperCase()} ${path} ${op.operationId}`))
    .sort()
  const registered = operations.map((op) => `${op.method} ${op.path} ${op.id}`).sort()
  assert.deepEqual(documented, registered)
})

test('every route of the registry answers at its documented path', async () => {
  for (const op of operations.filter((o) => o.method === 'GET' && !o.path.includes('{'))) {
    const response = await fetch(`${fixture.app.url}${op.path}`)
    assert.notEqual(response.status, 404, `${op.path} is mounted`)
    await response.arrayBuffer()
  }
})
