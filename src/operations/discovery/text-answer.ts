import { z } from 'zod'
import { respond } from '../define.ts'

/** The output of a discovery operation that answers text (Markdown, HTML) rather than JSON. */
export const textDocument = z.object({}).describe('text/plain (Markdown for the llms files)')
/** The output of a discovery operation that answers a JSON document of its own shape. */
export const jsonDocument = z.looseObject({}).describe('JSON document')

/** A 200 answer with a text body of the given type (the runtime sends bytes as they are). */
export function textAnswer(body: string, type = 'text/plain; charset=utf-8', headers: Record<string, string> = {}) {
  return respond(200, Buffer.from(body), { 'content-type': type, ...headers })
}
