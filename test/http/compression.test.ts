import { test } from 'node:test'
import assert from 'node:assert/strict'
import http from 'node:http'
import { gunzipSync } from 'node:zlib'
import { useApp } from '../support/harness.ts'
import { acceptsGzip } from '../../src/http/compress.ts'

const app = useApp()

/** A raw GET, so the test sees the bytes and headers as sent (fetch would decompress). */
function rawGet(url: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    http.get(url, { headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c) => chunks.push(c))
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }))
    }).on('error', reject)
  })
}

test('large JSON is sent gzipped to clients that accept it, and is the same document', async () => {
  const url = `${app.url}/.well-known/openapi.json`
  const plain = await rawGet(url)
  assert.equal(plain.status, 200)
  assert.equal(plain.headers['content-encoding'], undefined, 'no encoding unless asked for')
  // Origin too: CORS headers go only to requests that name one (test/ops/abuse.test.ts).
  const varies = (headers: Record<string, unknown>) => String(headers.vary).toLowerCase().split(/\s*,\s*/).sort()
  assert.deepEqual(varies(plain.headers), ['accept-encoding', 'origin'])

  const zipped = await rawGet(url, { 'accept-encoding': 'br, gzip, deflate' })
  assert.equal(zipped.headers['content-encoding'], 'gzip')
  assert.deepEqual(varies(zipped.headers), ['accept-encoding', 'origin'])
  assert.ok(zipped.body.length < plain.body.length / 3, `${zipped.body.length} of ${plain.body.length} bytes`)
  assert.deepEqual(gunzipSync(zipped.body), plain.body)

  // Each encoding is its own representation: its own ETag, and a 304 for it.
  assert.notEqual(zipped.headers.etag, plain.headers.etag)
  const again = await rawGet(url, { 'accept-encoding': 'gzip', 'if-none-match': zipped.headers.etag! })
  assert.equal(again.status, 304)
  const mismatched = await rawGet(url, { 'if-none-match': zipped.headers.etag! })
  assert.equal(mismatched.status, 200, 'the gzip validator does not match the plain representation')

  const refused = await rawGet(url, { 'accept-encoding': 'gzip;q=0, identity' })
  assert.equal(refused.headers['content-encoding'], undefined)
  assert.deepEqual(refused.body, plain.body)
})

test('small answers and errors are sent as they are', async () => {
  const stats = await rawGet(`${app.url}/api/stats`, { 'accept-encoding': 'gzip' })
  assert.equal(stats.status, 200)
  assert.equal(stats.headers['content-encoding'], undefined)
  assert.equal(JSON.parse(stats.body.toString()).totalBurns, 0)
  const bad = await rawGet(`${app.url}/api/wallet?address=nope`, { 'accept-encoding': 'gzip' })
  assert.equal(bad.status, 400)
  assert.equal(JSON.parse(bad.body.toString()).error.code, 'INVALID_ADDRESS')
})

test('Accept-Encoding is read with its q-values', () => {
  assert.equal(acceptsGzip(undefined), false)
  assert.equal(acceptsGzip('gzip'), true)
  assert.equal(acceptsGzip('deflate, GZIP;q=0.5'), true)
  assert.equal(acceptsGzip('*'), true)
  assert.equal(acceptsGzip('gzip;q=0'), false)
  assert.equal(acceptsGzip('br, identity'), false)
})
