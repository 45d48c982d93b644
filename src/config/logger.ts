import { pino, type Logger } from 'pino'
import pretty from 'pino-pretty'

/** Paths of log fields that may carry a credential; pino prints [Redacted] instead. */
const REDACT = ['*.authorization', '*.headers.authorization', '*.headers["x-payment"]', '*.headers["payment-signature"]']

/**
 * The service's logger: JSON lines for machines, or one readable colored line per entry when a
 * person watches a terminal. Secrets are redacted in both.
 */
export function createLogger(level: string, options: { pretty?: boolean } = {}): Logger {
  if (!options.pretty) return pino({ level, redact: REDACT })
  return pino({ level, redact: REDACT }, pretty({ colorize: true, sync: true, translateTime: 'HH:MM:ss.l', ignore: 'pid,hostname' }))
}
