import { errorCodes, type ErrorCode } from './codes.ts'

export type AppErrorOptions = {
  details?: Record<string, unknown>
  cause?: unknown
  /** Whether trying the same step again may succeed (RPC hiccup, provider timeout). */
  retryable?: boolean
  /** Overrides the catalogue status (only where the spec fixes another one). */
  status?: number
}

/**
 * The one error type of the service: a stable SNAKE_CASE code from the catalogue, the HTTP
 * status, a sentence for a human, optional details for the caller, and the standard `cause`
 * (never sent to the caller).
 */
export class AppError extends Error {
  override name = 'AppError'
  readonly code: ErrorCode
  readonly status: number
  readonly details?: Record<string, unknown>
  readonly retryable: boolean

  constructor(code: ErrorCode, message: string, options: AppErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.code = code
    this.status = options.status ?? errorCodes[code].status
    this.details = options.details
    this.retryable = options.retryable ?? false
  }

  /** The public error body, `{ error: { code, message, details? } }` (docs/agents/errors.md). */
  toBody(): { error: { code: ErrorCode; message: string; details?: Record<string, unknown> } } {
    return {
      error: {
        code: this.code,
        message: this.message,
        ...(this.details ? { details: this.details } : {}),
      },
    }
  }
}

export function isAppError(value: unknown): value is AppError {
  return value instanceof AppError
}

/** Walks the `cause` chain and returns the first error matching the predicate. */
export function findCause<T>(error: unknown, match: (e: unknown) => e is T): T | undefined {
  let current: unknown = error
  for (let depth = 0; current && depth < 16; depth++) {
    if (match(current)) return current
    current = (current as { cause?: unknown }).cause
  }
  return undefined
}
