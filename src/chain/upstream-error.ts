import { AppError } from '../errors/app-error.ts'

/**
 * A chain read or write that failed for reasons outside the caller's control. The viem
 * error stays as `cause` for the logs; its text (which may hold the RPC URL) never
 * reaches the caller.
 */
export function rpcFailed(what: string, cause: unknown): AppError {
  return new AppError('UPSTREAM_FAILED', `The chain RPC failed while ${what}.`, { cause, retryable: true })
}
