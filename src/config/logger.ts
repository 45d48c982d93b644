import { pino, type DestinationStream, type Logger } from 'pino'
import pretty from 'pino-pretty'

/** Field names that carry a credential or a payment wherever they appear in a log entry. */
const SECRET_FIELDS = [
  'authorization',
  'cookie',
  '["x-payment"]',
  '["payment-signature"]',
  '["x-api-key"]',
  'signature',
  'burnerSignature',
  'paymentPayload',
  'privateKey',
  'apiKey',
  'jwt',
  'password',
]

/**
 * Paths of log fields that may carry a credential; pino prints [Redacted] instead. pino's
 * redaction has no recursive wildcard, so each name is listed at the depths our entries use:
 * top level, in an object (`req.headers.authorization` as `*.headers.authorization`), and in
 * an error's request (`err.request.headers.authorization`).
 */
export const REDACT_PATHS = SECRET_FIELDS.flatMap((field) => {
  const dot = field.startsWith('[') ? '' : '.'
  return [field, `*${dot}${field}`, `*.*${dot}${field}`, `*.*.*${dot}${field}`, `headers${dot}${field}`, `*.headers${dot}${field}`, `*.*.headers${dot}${field}`]
})

/**
 * The service's logger: JSON lines for machines, or one readable colored line per entry when a
 * person watches a terminal. Secrets are redacted in both (config secrets also print as a
 * placeholder on their own: see secret.ts).
 */
export function createLogger(level: string, options: { pretty?: boolean; destination?: DestinationStream } = {}): Logger {
  const base = { level, redact: REDACT_PATHS }
  if (options.destination) return pino(base, options.destination)
  if (!options.pretty) return pino(base)
  return pino(base, pretty({ colorize: true, sync: true, translateTime: 'HH:MM:ss.l', ignore: 'pid,hostname' }))
}
