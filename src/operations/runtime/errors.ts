import type { FastifyError } from 'fastify'
import { AppError, isAppError } from '../../errors/app-error.ts'

/** Translates anything thrown while serving a request into the one public error type. */
export function toAppError(error: unknown): AppError {
  if (isAppError(error)) return error
  const fastifyError = error as Partial<FastifyError>
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('PAYLOAD_TOO_LARGE', 'The request body is larger than the service accepts.', {
        cause: error,
      })
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the request body as application/json.', { cause: error })
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError('INVALID_INPUT', 'The JSON body is empty.', { cause: error })
  }
  if (error instanceof SyntaxError || (fastifyError.statusCode && fastifyError.statusCode < 500)) {
    return new AppError('INVALID_INPUT', 'The request body is not valid JSON.', { cause: error })
  }
  return new AppError('INTERNAL_ERROR', 'internal error', { cause: error })
}
