import type { AnyOperation } from '../define.ts'
import { jsonSchemaOf, type JsonSchema } from '../json-schema.ts'
import { errorCodes } from '../../errors/codes.ts'
import { errorBody } from '../schemas.ts'

const alwaysPossible = ['INVALID_INPUT', 'INTERNAL_ERROR'] as const

/** The OpenAPI 3.1 document, derived from the registry alone. */
export function buildOpenApi(operations: AnyOperation[], options: { baseUrl: string }) {
  const paths: Record<string, Record<string, unknown>> = {}
  for (const op of operations) {
    const input = jsonSchemaOf(op.input, 'input')
    const properties = (input.properties ?? {}) as Record<string, JsonSchema>
    const required = new Set((input.required ?? []) as string[])
    const pathParams = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!)

    const parameters = Object.entries(properties)
      .filter(([name]) => op.method === 'GET' || pathParams.includes(name))
      .map(([name, schema]) => ({
        name,
        in: pathParams.includes(name) ? 'path' : 'query',
        required: pathParams.includes(name) || required.has(name),
        ...(schema.description ? { description: schema.description } : {}),
        schema,
      }))

    // Reads renewed by events take a block they must be at least as new as (see README,
    // consistency), and say which block they are exact as of.
    const fresh = op.method === 'GET' && op.dependsOn
    if (fresh) {
      const block = { type: 'string', pattern: '^\\d{1,20}$' }
      parameters.push(
        { name: 'minBlock', in: 'query', required: false, description: 'Answer at least as new as this block (e.g. the X-Block-Number of your write)', schema: block },
        { name: 'X-Min-Block', in: 'header', required: false, description: 'Same as minBlock', schema: block },
      )
    }

    let requestBody: unknown
    if (op.method === 'POST') {
      const bodyProps = Object.fromEntries(Object.entries(properties).filter(([name]) => !pathParams.includes(name)))
      requestBody = {
        required: required.size > 0,
        content: {
          'application/json': {
            schema: {
              ...input,
              properties: bodyProps,
              ...(input.required
                ? { required: (input.required as string[]).filter((n) => !pathParams.includes(n)) }
                : {}),
            },
          },
        },
      }
    }

    const errorStatuses = new Map<number, string[]>()
    for (const code of [...alwaysPossible, ...op.errors]) {
      const { status } = errorCodes[code]
      errorStatuses.set(status, [...(errorStatuses.get(status) ?? []), code])
    }
    const responses: Record<string, unknown> = {
      [String(op.status ?? 200)]: {
        description: op.status === 402 ? 'Payment required (always): the payment and burn requirements' : 'Success',
        ...(fresh || op.invalidates
          ? { headers: { 'X-Block-Number': { description: fresh ? 'The block this answer is exact as of' : 'The block the effect of this write is in', schema: { type: 'string' } } } }
          : {}),
        content: { 'application/json': { schema: jsonSchemaOf(op.output, 'output') } },
      },
    }
    for (const extra of op.extraResponses ?? []) {
      responses[String(extra.status)] = {
        description: extra.description,
        content: { 'application/json': { schema: jsonSchemaOf(extra.schema, 'output') } },
      }
    }
    for (const [status, codes] of [...errorStatuses].sort((a, b) => a[0] - b[0])) {
      if (responses[String(status)]) continue
      responses[String(status)] = {
        description: codes.map((code) => `${code}: ${errorCodes[code as keyof typeof errorCodes].meaning}`).join(' '),
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      }
    }

    paths[op.path] ??= {}
    paths[op.path]![op.method.toLowerCase()] = {
      operationId: op.id,
      summary: op.summary,
      ...(op.description ? { description: op.description } : {}),
      tags: op.tags,
      ...(parameters.length ? { parameters } : {}),
      ...(requestBody ? { requestBody } : {}),
      responses,
    }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Burn-to-create portrait service',
      version: '1.0.0',
      description:
        'Burn 225,000 service tokens, pay 1 USDm with x402, upload a portrait, receive an AI-enhanced portrait pinned to IPFS and minted as an NFT on chain 4326.',
    },
    servers: [{ url: options.baseUrl }],
    paths,
    components: { schemas: { Error: jsonSchemaOf(errorBody, 'output') } },
  }
}
