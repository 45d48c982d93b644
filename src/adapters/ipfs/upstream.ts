import { AppError } from '../../errors/app-error.ts'

/** A pinning service failed: 429 and 5xx may pass on retry, other answers will not. */
export function pinFailed(service: string, status: number | undefined, cause: unknown): AppError {
  const retryable = status === undefined || status === 429 || status >= 500
  return new AppError('UPSTREAM_FAILED', `The IPFS pinning service ${service} failed${status ? ` with HTTP ${status}` : ''}.`, { cause, retryable })
}
