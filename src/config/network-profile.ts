import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

/**
 * The deployment files shipped with the service, by NETWORK. Two directories up from this
 * module is the package root from src/config and from dist/config alike.
 */
export const NETWORK_PROFILES = {
  megaeth: fileURLToPath(new URL('../../deploy/megaeth.json', import.meta.url)),
} as const

/** What a deployment file's `network` section may say (deploy/megaeth.json). */
type NetworkSection = { rpc?: unknown; explorer?: unknown; startBlock?: unknown }

function readNetworkSection(file: string): NetworkSection | undefined {
  const raw = JSON.parse(readFileSync(file, 'utf8')) as { network?: NetworkSection }
  return raw && typeof raw === 'object' && raw.network && typeof raw.network === 'object' ? raw.network : undefined
}

/** The variables a `network` section supplies: its public RPC serves as RPC_URL and as the announced one. */
function variablesOf(network: NetworkSection | undefined): Record<string, string> {
  if (!network) return {}
  const out: Record<string, string> = {}
  if (typeof network.rpc === 'string') {
    out.RPC_URL = network.rpc
    out.PUBLIC_RPC_URL = network.rpc
  }
  if (typeof network.explorer === 'string') out.EXPLORER_URL = network.explorer
  if (typeof network.startBlock === 'number') out.START_BLOCK = String(network.startBlock)
  return out
}

/**
 * The defaults a network profile gives the variables, under whatever the environment sets:
 * NETWORK=megaeth selects deploy/megaeth.json as CONTRACTS_FILE, and the `network` section of
 * the deployment file in use (CONTRACTS_FILE's over the profile's) supplies RPC_URL,
 * PUBLIC_RPC_URL, EXPLORER_URL and START_BLOCK. The default `npm start` (no NETWORK, no
 * CONTRACTS_FILE) reads no file. Throws when the shipped profile cannot be read.
 */
export function profileDefaults(env: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {}
  if (env.NETWORK === 'megaeth') {
    const file = NETWORK_PROFILES.megaeth
    try {
      Object.assign(out, { CONTRACTS_FILE: file }, variablesOf(readNetworkSection(file)))
    } catch (cause) {
      throw new Error(`NETWORK: the megaeth profile ${file} cannot be read (${(cause as Error).message}); reinstall the package or set CONTRACTS_FILE.`)
    }
  }
  if (env.CONTRACTS_FILE) {
    // A file that cannot be read is reported when the deployment is read (StartupError naming CONTRACTS_FILE).
    try {
      Object.assign(out, variablesOf(readNetworkSection(env.CONTRACTS_FILE)))
    } catch {}
  }
  return out
}
