/**
 * Configured URLs may carry credentials: a password in the user part (a database, Redis) or a
 * key in the path (RPC providers put API keys there). Only the scheme and host of such a URL
 * are ever shown.
 */

/** Variables whose value is a URL that may hold a credential; their values are never shown whole. */
export const CREDENTIAL_URL_VARIABLES = ['RPC_URL', 'RPC_WS_URL', 'DATABASE_URL', 'REDIS_URL', 'FACILITATOR_URL', 'KUBO_RPC_URL', 'CHAT_LLM_URL'] as const

/**
 * `postgres://***@db.internal:5432/…`: the scheme and host of a URL, the user part and the path
 * hidden. Works on malformed values too (the text after the last `@` is the host: a password
 * may hold `#`, `/` or `@` unencoded).
 */
export function redactUrl(value: string): string {
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(value)?.[0] ?? ''
  let rest = value.slice(scheme.length)
  const at = rest.lastIndexOf('@')
  const user = at >= 0 ? '***@' : ''
  if (at >= 0) rest = rest.slice(at + 1)
  const end = rest.search(/[/?#]/)
  const host = end >= 0 ? rest.slice(0, end) : rest
  return `${scheme}${user}${host}${end >= 0 ? '/…' : ''}`
}

/**
 * A function that replaces, in any text, every form in which these URLs may appear (whole, without
 * their user part as HTTP clients print them, and their path alone) with the redacted form; undefined when there is nothing to replace.
 */
export function urlScrubber(urls: Array<string | undefined>): ((text: string) => string) | undefined {
  const pairs: Array<[string, string]> = []
  for (const url of urls) {
    if (!url) continue
    const shown = redactUrl(url)
    pairs.push([url, shown])
    try {
      const parsed = new URL(url)
      const path = `${parsed.pathname}${parsed.search}`
      parsed.username = ''
      parsed.password = ''
      pairs.push([parsed.toString(), shown], [parsed.toString().replace(/\/$/, ''), shown])
      // A path long enough to be a key, alone (an error may name only the path).
      if (path.length > 8) pairs.push([path, '/…'])
    } catch {
      // Not a URL: only the whole value is replaced.
    }
  }
  // Longest first, so a whole URL is replaced before its parts.
  pairs.sort((a, b) => b[0].length - a[0].length)
  const found = pairs.filter(([secret, shown]) => secret !== shown && secret.length > 0)
  if (found.length === 0) return undefined
  return (text) => {
    let out = text
    for (const [secret, shown] of found) if (out.includes(secret)) out = out.split(secret).join(shown)
    return out
  }
}

/** The configured values of those variables. */
export const secretUrlsOf = (config: Partial<Record<(typeof CREDENTIAL_URL_VARIABLES)[number], string | undefined>>) =>
  CREDENTIAL_URL_VARIABLES.map((name) => config[name])
