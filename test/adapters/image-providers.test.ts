import { test } from 'node:test'
import assert from 'node:assert/strict'
import sharp from 'sharp'
import { startFakeApi, formDataOf } from '../support/fake-http.ts'
import { createReplicateGenerator } from '../../src/adapters/image/replicate.ts'
import { createOpenAIGenerator } from '../../src/adapters/image/openai.ts'

const portrait = async () => new Uint8Array(await sharp({ create: { width: 300, height: 400, channels: 3, background: { r: 120, g: 90, b: 80 } } }).jpeg().toBuffer())
const generated = () => sharp({ create: { width: 512, height: 512, channels: 3, background: { r: 20, g: 20, b: 20 } } }).png().toBuffer()

const isSquarePng = async (bytes: Uint8Array) => {
  const meta = await sharp(bytes).metadata()
  return meta.format === 'png' && meta.width === 1024 && meta.height === 1024
}

test('Replicate: creates a prediction on the model with the portrait, polls it, downloads the output', async () => {
  const api = await startFakeApi(async (req, base) => {
    if (req.method === 'POST' && req.url === '/v1/models/black-forest-labs/flux-2-max/predictions') {
      return { status: 201, body: { id: 'p1', status: 'processing', urls: { get: `${base}/v1/predictions/p1` } } }
    }
    if (req.method === 'GET' && req.url === '/v1/predictions/p1') return { status: 200, body: { id: 'p1', status: 'succeeded', output: [`${base}/files/out.png`] } }
    if (req.url === '/files/out.png') return { status: 200, raw: await generated(), type: 'image/png' }
    return { status: 404, body: { detail: 'not found' } }
  })
  try {
    const result = await createReplicateGenerator({ apiToken: 'r8_test', baseUrl: `${api.url}/v1` }).generate({ image: await portrait(), mimeType: 'image/jpeg', seed: 's' })
    assert.ok(await isSquarePng(result.image))
    const create = api.requests[0]!
    assert.equal(create.headers.authorization, 'Bearer r8_test')
    assert.match(String(create.headers.prefer), /^wait/)
    const input = JSON.parse(create.body.toString()).input
    assert.match(input.prompt, /laser/)
    assert.match(input.input_images[0], /^data:image\/jpeg;base64,\/9j\//)
    assert.equal(input.aspect_ratio, '1:1')
    assert.ok(api.requests.some((r) => r.url === '/v1/predictions/p1'), 'polled the prediction')
  } finally {
    await api.close()
  }
})

test('Replicate failures: 5xx is retryable, a bad token is not, a failed prediction is retryable', async () => {
  for (const [status, retryable] of [[500, true], [401, false]] as const) {
    const api = await startFakeApi(async () => ({ status, body: { detail: 'nope' } }))
    try {
      await assert.rejects(
        createReplicateGenerator({ apiToken: 'r8_secret_token', baseUrl: `${api.url}/v1` }).generate({ image: await portrait(), mimeType: 'image/jpeg', seed: 's' }),
        (error: any) => {
          assert.equal(error.code, 'UPSTREAM_FAILED')
          assert.equal(error.retryable, retryable, `HTTP ${status}`)
          assert.ok(!error.message.includes('r8_secret_token'))
          return true
        },
      )
    } finally {
      await api.close()
    }
  }
  const failing = await startFakeApi(async () => ({ status: 201, body: { id: 'p2', status: 'failed', error: 'NSFW' } }))
  try {
    await assert.rejects(createReplicateGenerator({ apiToken: 't', baseUrl: `${failing.url}/v1` }).generate({ image: await portrait(), mimeType: 'image/jpeg', seed: 's' }), (e: any) => e.code === 'UPSTREAM_FAILED')
  } finally {
    await failing.close()
  }
})

test('OpenAI: posts an image edit (multipart) and decodes b64_json', async () => {
  const png = await generated()
  const api = await startFakeApi(async (req) => {
    if (req.method === 'POST' && req.url === '/v1/images/edits') return { status: 200, body: { created: 1, data: [{ b64_json: png.toString('base64') }] } }
    return { status: 404, body: {} }
  })
  try {
    const result = await createOpenAIGenerator({ apiKey: 'sk-test', baseURL: `${api.url}/v1` }).generate({ image: await portrait(), mimeType: 'image/jpeg', seed: 's' })
    assert.ok(await isSquarePng(result.image))
    const request = api.requests[0]!
    assert.equal(request.headers.authorization, 'Bearer sk-test')
    const form = await formDataOf(request)
    assert.equal(form.get('model'), 'gpt-image-1')
    assert.equal(form.get('size'), '1024x1024')
    assert.match(String(form.get('prompt')), /#FF8AA8/)
    const image = form.get('image') as File
    assert.equal(image.type, 'image/jpeg')
    assert.ok(image.size > 100)
  } finally {
    await api.close()
  }
})

test('OpenAI failures: 429/5xx retryable, 401 not', async () => {
  for (const [status, retryable] of [[429, true], [503, true], [401, false]] as const) {
    const api = await startFakeApi(async () => ({ status, body: { error: { message: 'no', type: 'x' } } }))
    try {
      await assert.rejects(
        createOpenAIGenerator({ apiKey: 'sk-secret', baseURL: `${api.url}/v1` }).generate({ image: await portrait(), mimeType: 'image/jpeg', seed: 's' }),
        (error: any) => error.code === 'UPSTREAM_FAILED' && error.retryable === retryable && !error.message.includes('sk-secret'),
      )
    } finally {
      await api.close()
    }
  }
})
