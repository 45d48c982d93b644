import { pino, type DestinationStream, type Logger, type LoggerOptions } from 'pino'
import { urlScrubber } from './redact-url.ts'
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
export function createLogger(level: string, options: { pretty?: boolean; destination?: DestinationStream; /** Configured URLs that may hold a credential: shown as scheme and host only, in messages and errors. */ secretUrls?: Array<string | undefined> } = {}): Logger {
  const scrub = urlScrubber(options.secretUrls ?? [])
  const base: LoggerOptions = { level, redact: REDACT_PATHS }
  if (scrub) {
    // An HTTP client's error names the URL it called (viem: "URL: http://host/v2/<key>").
    base.serializers = { err: (error: Error) => scrubStrings(pino.stdSerializers.err(error), scrub) }
    base.hooks = {
      logMethod(args, method) {
        method.apply(this, args.map((arg) => (typeof arg === 'string' ? scrub(arg) : arg)) as Parameters<typeof method>)
      },
    }
  }
  if (options.destination) return pino(base, options.destination)
  if (!options.pretty) return pino(base)
  return pino(base, pretty({ colorize: true, sync: true, translateTime: 'HH:MM:ss.l', ignore: 'pid,hostname' }))
}

/** Every string in a serialized error (message, stack, causes, request fields) scrubbed. */
function scrubStrings<T>(value: T, scrub: (text: string) => string, depth = 0): T {
  if (typeof value === 'string') return scrub(value) as T
  if (depth > 6 || value === null || typeof value !== 'object') return value
  if (Array.isArray(value)) return value.map((item) => scrubStrings(item, scrub, depth + 1)) as T
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, scrubStrings(item, scrub, depth + 1)])) as T
}
