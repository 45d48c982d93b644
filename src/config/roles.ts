/**
 * What one process runs, from ROLE. Every part shares its state through the database and the
 * bus, so an operator scales each on its own: `api` serves the HTTP API (and the MCP server),
 * `worker` finishes owed submissions (retries, work a crashed process left), `indexer` follows
 * the chain (instances take turns through a lease, so any number may run). `all`, the default,
 * is the single-process deployment `npm start` runs.
 */
export type Roles = Readonly<{ api: boolean; worker: boolean; indexer: boolean }>

export const ROLE_NAMES = ['api', 'worker', 'indexer'] as const

/** `all`, or a comma-separated set of api, worker, indexer (validated by the config schema). */
export const ROLE_PATTERN = /^(all|(api|worker|indexer)(,(api|worker|indexer))*)$/

export function parseRoles(role: string): Roles {
  const names = new Set(role.split(',').map((name) => name.trim()))
  const all = names.has('all')
  return Object.freeze({ api: all || names.has('api'), worker: all || names.has('worker'), indexer: all || names.has('indexer') })
}
