import { envSchema, type Env, type EnvInput } from './schema.ts'
import { CREDENTIAL_URL_VARIABLES, redactUrl } from './redact-url.ts'
import { profileDefaults } from './network-profile.ts'

export class ConfigError extends Error {
  override name = 'ConfigError'
}

/**
 * Start-up could not use what a variable points at (a file, a database, Redis): the message
 * names the variable and says what went wrong, for a person to read instead of a stack trace.
 */
export class StartupError extends Error {
  override name = 'StartupError'
  constructor(
    readonly variable: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`${variable}: ${message}`, options)
  }
}

export type Config = Readonly<
  Env & {
    publicBaseUrl: string
  }
>

/**
 * Parses the environment once. A wrong value stops start-up with a message naming each
 * variable, what it got and what it expected; secrets are never echoed, and of a URL that may
 * hold a credential only its scheme and host. A network profile (NETWORK, or the `network`
 * section of CONTRACTS_FILE) fills in the variables the environment leaves unset.
 */
export function loadConfig(env: EnvInput | NodeJS.ProcessEnv = process.env): Config {
  const set = Object.fromEntries(
    Object.keys(envSchema.shape)
      .map((key) => [key, env[key as keyof typeof env]])
      .filter(([, value]) => value !== undefined && value !== ''),
  ) as Record<string, string>
  let defaults: Record<string, string>
  try {
    defaults = profileDefaults(set)
  } catch (error) {
    throw new ConfigError(`Invalid configuration:\n  ${(error as Error).message}`)
  }
  const known = { ...defaults, ...set }
  const parsed = envSchema.safeParse(known)
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => {
      const name = String(issue.path[0])
      const secretish = /KEY|TOKEN|JWT|SECRET/.test(name)
      const value = known[name]
      const shown = typeof value === 'string' && (CREDENTIAL_URL_VARIABLES as readonly string[]).includes(name) ? redactUrl(value) : value
      const got = secretish ? '' : value === undefined ? ' It is unset.' : ` Got ${JSON.stringify(shown)}.`
      return `${name}: ${issue.message}.${got}`
    })
    throw new ConfigError(`Invalid configuration:\n  ${lines.join('\n  ')}`)
  }
  const env2 = parsed.data
  const publicBaseUrl = (env2.PUBLIC_BASE_URL ?? `http://${env2.HOST}:${env2.PORT}`).replace(/\/$/, '')
  return Object.freeze({ ...env2, publicBaseUrl })
}
