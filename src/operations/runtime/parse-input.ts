import type { z } from 'zod'
import { AppError } from '../../errors/app-error.ts'
import { inputErrorCode } from '../schemas.ts'
import type { AnyOperation } from '../define.ts'
import type { ErrorCode } from '../../errors/codes.ts'

/**
 * Validates raw input (path + query or body, or MCP arguments) against the operation's
 * schema. A failure names the field and what was wrong, with the field's own error code
 * (INVALID_ADDRESS for an address, ...).
 */
export function parseOperationInput(op: AnyOperation, raw: unknown): unknown {
  const result = op.input.safeParse(raw ?? {})
  if (result.success) return result.data
  const issue = result.error.issues[0]!
  const field = issue.path.map(String).join('.')
  const code = errorCodeAlong(op.input, issue.path) ?? 'INVALID_INPUT'
  const message = field ? `Invalid ${field}: ${issue.message}.` : `Invalid input: ${issue.message}.`
  throw new AppError(code, message, {
    details: {
      field: field || undefined,
      issues: meaningfulIssues(result.error.issues).map((i) => ({ path: i.path.map(String).join('.'), message: i.message })),
    },
  })
}

/** The error code of the deepest schema along the failing path that declares one. */
function errorCodeAlong(schema: z.ZodType, path: PropertyKey[]): ErrorCode | undefined {
  let current: any = schema
  let code: ErrorCode | undefined
  for (const key of path) {
    current = unwrap(current)
    const def = current?._zod?.def
    if (def?.type === 'object') current = def.shape[key as string]
    else if (def?.type === 'array') current = def.element
    else break
    if (current) code = inputErrorCode(current) ?? code
  }
  return code
}

function unwrap(schema: any): any {
  let current = schema
  for (let i = 0; i < 8; i++) {
    const def = current?._zod?.def
    if (!def) return current
    if (def.type === 'optional' || def.type === 'nullable' || def.type === 'default' || def.type === 'prefault') {
      current = def.innerType
    } else if (def.type === 'pipe' && def.in?._zod?.def?.type === 'object') {
      current = def.in
    } else return current
  }
  return current
}

/**
 * Zod goes on checking a value of the wrong type ("expected array, received string", then
 * "expected string to have <=10 characters" for an array's max): only the type issue says
 * something true about a field whose type is wrong.
 */
function meaningfulIssues(issues: z.core.$ZodIssue[]): z.core.$ZodIssue[] {
  const wrongType = new Set(issues.filter((i) => i.code === 'invalid_type').map((i) => i.path.map(String).join('.')))
  return issues.filter((i) => i.code === 'invalid_type' || !wrongType.has(i.path.map(String).join('.')))
}
