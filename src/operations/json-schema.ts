import { z } from 'zod'

export type JsonSchema = Record<string, unknown>

/**
 * JSON Schema 2020-12 of a zod schema: the dialect of both OpenAPI 3.1 and MCP, so one
 * conversion feeds both. `input` describes what a caller sends (before defaults and
 * transforms), `output` what the service returns.
 */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema
  delete json.$schema
  return stripInternalMeta(json) as JsonSchema
}

/** `errorCode` is our own annotation for input errors, not a JSON Schema keyword. */
function stripInternalMeta(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripInternalMeta)
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {}
    for (const [key, inner] of Object.entries(value)) {
      if (key === 'errorCode') continue
      out[key] = stripInternalMeta(inner)
    }
    return out
  }
  return value
}
