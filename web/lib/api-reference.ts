/**
 * The API reference the page shows, read from the service's OpenAPI 3.1 document: every
 * operation with its parameters, request body fields and responses. Pure, so it is tested
 * against the document the service really serves.
 */

type Schema = {
  $ref?: string
  type?: string | string[]
  format?: string
  enum?: unknown[]
  const?: unknown
  items?: Schema
  anyOf?: Schema[]
  oneOf?: Schema[]
  allOf?: Schema[]
  minimum?: number
  maximum?: number
  description?: string
  properties?: Record<string, Schema>
  required?: string[]
}

type Parameter = { name: string; in: string; required?: boolean; description?: string; schema?: Schema; $ref?: string }
type Operation = {
  operationId?: string
  summary?: string
  description?: string
  tags?: string[]
  parameters?: Parameter[]
  requestBody?: { required?: boolean; content?: Record<string, { schema?: Schema }> }
  responses?: Record<string, { description?: string; content?: Record<string, unknown> }>
}
export type OpenApiDocument = {
  openapi?: string
  info?: { title?: string; version?: string; description?: string }
  tags?: Array<{ name: string; description?: string }>
  paths?: Record<string, Record<string, unknown>>
  components?: { schemas?: Record<string, Schema>; parameters?: Record<string, Parameter> }
}

export type ApiField = { name: string; in: string; required: boolean; type: string; description: string }
export type ApiOperation = {
  id: string
  method: string
  path: string
  summary: string
  description: string
  parameters: ApiField[]
  body: { contentType: string; required: boolean; fields: ApiField[] } | null
  responses: Array<{ status: string; description: string; contentType: string | null }>
}
export type ApiReference = {
  title: string
  version: string
  description: string
  count: number
  groups: Array<{ tag: string; operations: ApiOperation[] }>
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']

export function buildApiReference(doc: OpenApiDocument): ApiReference {
  const groups = new Map<string, ApiOperation[]>()
  for (const tag of doc.tags ?? []) groups.set(tag.name, [])
  let count = 0
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    const shared = (item.parameters as Parameter[] | undefined) ?? []
    for (const method of METHODS) {
      const op = item[method] as Operation | undefined
      if (!op) continue
      const operation = describeOperation(doc, path, method, op, shared)
      const tag = op.tags?.[0] ?? 'other'
      groups.set(tag, [...(groups.get(tag) ?? []), operation])
      count++
    }
  }
  return {
    title: doc.info?.title ?? 'API',
    version: doc.info?.version ?? '',
    description: doc.info?.description ?? '',
    count,
    groups: [...groups].filter(([, operations]) => operations.length > 0).map(([tag, operations]) => ({ tag, operations })),
  }
}

function describeOperation(doc: OpenApiDocument, path: string, method: string, op: Operation, shared: Parameter[]): ApiOperation {
  const parameters = [...shared, ...(op.parameters ?? [])].map((p) => resolveParameter(doc, p)).map((p) => ({
    name: p.name,
    in: p.in,
    required: Boolean(p.required),
    type: describeType(doc, p.schema),
    description: p.description ?? p.schema?.description ?? '',
  }))
  const [contentType, media] = Object.entries(op.requestBody?.content ?? {})[0] ?? []
  const bodySchema = media?.schema ? resolveSchema(doc, media.schema) : undefined
  const body =
    contentType && op.requestBody
      ? {
          contentType,
          required: Boolean(op.requestBody.required),
          fields: Object.entries(bodySchema?.properties ?? {}).map(([name, schema]) => ({
            name,
            in: 'body',
            required: bodySchema?.required?.includes(name) ?? false,
            type: describeType(doc, schema),
            description: resolveSchema(doc, schema).description ?? '',
          })),
        }
      : null
  const responses = Object.entries(op.responses ?? {}).map(([status, response]) => ({
    status,
    description: response.description ?? '',
    contentType: Object.keys(response.content ?? {})[0] ?? null,
  }))
  return {
    id: op.operationId ?? `${method} ${path}`,
    method: method.toUpperCase(),
    path,
    summary: op.summary ?? '',
    description: op.description ?? '',
    parameters,
    body,
    responses,
  }
}

function resolveParameter(doc: OpenApiDocument, parameter: Parameter): Parameter {
  const name = parameter.$ref?.split('/').at(-1)
  return (name && doc.components?.parameters?.[name]) || parameter
}

function resolveSchema(doc: OpenApiDocument, schema: Schema): Schema {
  const name = schema.$ref?.split('/').at(-1)
  return (name && doc.components?.schemas?.[name]) || schema
}

/** A short type for a reader: `integer (1 to 50)`, `string (date-time)`, `"a" | "b"`, `array of string`. */
export function describeType(doc: OpenApiDocument, schema: Schema | undefined, depth = 0): string {
  if (!schema) return 'any'
  if (schema.$ref) return schema.$ref.split('/').at(-1) ?? 'object'
  if (depth > 3) return 'object'
  if (schema.enum) return schema.enum.map((v) => JSON.stringify(v)).join(' | ')
  if (schema.const !== undefined) return JSON.stringify(schema.const)
  const variants = schema.anyOf ?? schema.oneOf
  if (variants) return [...new Set(variants.map((v) => describeType(doc, v, depth + 1)))].join(' | ')
  if (schema.allOf?.length === 1) return describeType(doc, schema.allOf[0], depth + 1)
  const type = Array.isArray(schema.type) ? schema.type.join(' | ') : (schema.type ?? 'object')
  if (type === 'array') return `array of ${describeType(doc, schema.items, depth + 1)}`
  if (schema.format) return `${type} (${schema.format})`
  // zod's safe-integer bounds say nothing to a reader; real bounds do.
  const bounded = (n: number | undefined) => n !== undefined && Math.abs(n) < Number.MAX_SAFE_INTEGER
  if (bounded(schema.minimum) && bounded(schema.maximum)) return `${type} (${schema.minimum} to ${schema.maximum})`
  if (bounded(schema.minimum)) return `${type} (≥ ${schema.minimum})`
  return type
}
