import { test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { randomBytes } from 'node:crypto'
import { importer } from 'ipfs-unixfs-importer'
import { fixedSize } from 'ipfs-unixfs-importer/chunker'
import { balanced } from 'ipfs-unixfs-importer/layout'
import { computeCid } from '../../src/adapters/ipfs/cid.ts'
import { createLocalIpfsStore } from '../../src/adapters/ipfs/local-store.ts'
import { createPinataPinner } from '../../src/adapters/ipfs/pinata.ts'
import { createKuboPinner } from '../../src/adapters/ipfs/kubo.ts'
import { startFakeApi, formDataOf } from '../support/fake-http.ts'

/** The reference JS importer configured as `ipfs add --cid-version=1 --raw-leaves`. */
async function referenceCid(bytes: Uint8Array): Promise<string> {
  const blockstore = { put: async (cid: unknown) => cid, get: async () => { throw new Error('unused') }, has: async () => false }
  let root: { toString(): string } | undefined
  for await (const entry of importer([{ content: bytes }], blockstore as never, {
    cidVersion: 1, rawLeaves: true, chunker: fixedSize({ chunkSize: 262_144 }), layout: balanced({ maxChildrenPerNode: 174 }), reduceSingleLeafToSelf: true,
  })) root = entry.cid
  return root!.toString()
}

test('known CIDs of ipfs add --cid-version=1 --raw-leaves', async () => {
  assert.equal(await computeCid(new Uint8Array()), 'bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku')
  assert.equal(await computeCid(new TextEncoder().encode('hello world')), 'bafkreifzjut3te2nhyekklss27nh3k72ysco7y32koao5eei66wof36n5e')
})

test('CIDs equal the reference importer at chunk boundaries and for multi-level trees', async () => {
  // 46 MB spans more than 174 chunks, so the tree has two levels of links.
  for (const size of [1, 262_144, 262_145, 1_000_000, 46_000_000]) {
    const bytes = size > 2_000_000 ? new Uint8Array(size).fill(size % 251) : new Uint8Array(randomBytes(size))
    assert.equal(await computeCid(bytes), await referenceCid(bytes), `${size} bytes`)
  }
})

test('the local store keeps bytes under their CID, idempotently', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'b2c-ipfs-'))
  try {
    const store = createLocalIpfsStore({ dir, publicBaseUrl: 'http://127.0.0.1:3000/' })
    const bytes = new Uint8Array(randomBytes(600_000))
    const { cid } = await store.add(bytes, { name: 'a.bin' })
    assert.equal((await store.add(bytes, { name: 'again.bin' })).cid, cid)
    const back = await store.get!(cid)
    assert.deepEqual(back, bytes)
    assert.equal(await computeCid(back!), cid)
    assert.equal(store.gatewayUrl(cid), `http://127.0.0.1:3000/ipfs/${cid}`)
    assert.equal(await store.get!('not-a-cid'), null)
    assert.equal(await store.get!('bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku'), null)
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
})

test('Pinata: v3 upload with the JWT, public network and a name; the CID is checked', async () => {
  const api = await startFakeApi(async (req) => {
    const form = await formDataOf(req)
    const file = form.get('file') as File
    return { status: 200, body: { data: { id: 'f1', cid: await computeCid(new Uint8Array(await file.arrayBuffer())), name: form.get('name') } } }
  })
  try {
    const pinner = createPinataPinner({ jwt: 'jwt-secret', apiBaseUrl: api.url })
    const bytes = new TextEncoder().encode('{"name":"metadata"}')
    const { cid } = await pinner.add(bytes, { name: 'metadata.json', mimeType: 'application/json' })
    assert.equal(cid, await computeCid(bytes))
    const request = api.requests[0]!
    assert.equal(request.url, '/v3/files')
    assert.equal(request.headers.authorization, 'Bearer jwt-secret')
    const form = await formDataOf(request)
    assert.equal(form.get('network'), 'public')
    assert.equal((form.get('file') as File).name, 'metadata.json')
    assert.equal(pinner.gatewayUrl(cid), `https://gateway.pinata.cloud/ipfs/${cid}`)
  } finally {
    await api.close()
  }
})

test('Pinata answering a CID other than the bytes\' refuses the pin (retryable UPSTREAM_FAILED naming both CIDs)', async () => {
  const wrong = await computeCid(new TextEncoder().encode('other bytes'))
  const api = await startFakeApi(async (req) => {
    const form = await formDataOf(req)
    return { status: 200, body: { data: { id: 'f2', cid: wrong, name: form.get('name') } } }
  })
  try {
    const pinner = createPinataPinner({ jwt: 'jwt-secret', apiBaseUrl: api.url })
    const bytes = new TextEncoder().encode('{"name":"metadata"}')
    const expected = await computeCid(bytes)
    await assert.rejects(pinner.add(bytes, { name: 'metadata.json', mimeType: 'application/json' }), (error: any) => {
      assert.equal(error.code, 'UPSTREAM_FAILED')
      assert.equal(error.retryable, true)
      assert.match(String(error.cause?.message), new RegExp(`returned ${wrong}, expected ${expected}`))
      return true
    })
    assert.equal(api.requests.length, 1, 'the upload was made; its answer was refused')
  } finally {
    await api.close()
  }
})

test('Kubo: add with cid-version=1 and raw-leaves, pinned', async () => {
  const api = await startFakeApi(async (req) => {
    const file = (await formDataOf(req)).get('file') as File
    return { status: 200, body: { Name: file.name, Hash: await computeCid(new Uint8Array(await file.arrayBuffer())), Size: String(file.size) } }
  })
  try {
    const pinner = createKuboPinner({ rpcUrl: api.url, gatewayBaseUrl: 'http://127.0.0.1:8080' })
    const bytes = new Uint8Array(randomBytes(1000))
    const { cid } = await pinner.add(bytes, { name: 'x.png', mimeType: 'image/png' })
    assert.equal(cid, await computeCid(bytes))
    assert.equal(api.requests[0]!.url, '/api/v0/add?cid-version=1&raw-leaves=true&pin=true')
  } finally {
    await api.close()
  }
})

test('pinning failures: 5xx retryable, 401 not, and the key never appears', async () => {
  for (const [status, retryable] of [[502, true], [401, false]] as const) {
    const api = await startFakeApi(async () => ({ status, body: { error: 'no' } }))
    try {
      for (const pinner of [createPinataPinner({ jwt: 'jwt-secret', apiBaseUrl: api.url }), createKuboPinner({ rpcUrl: api.url, gatewayBaseUrl: 'http://x' })]) {
        await assert.rejects(pinner.add(new Uint8Array([1]), { name: 'a' }), (error: any) => error.code === 'UPSTREAM_FAILED' && error.retryable === retryable && !error.message.includes('jwt-secret'))
      }
    } finally {
      await api.close()
    }
  }
})
