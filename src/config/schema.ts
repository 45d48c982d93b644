import { z } from 'zod'
import { secret } from './secret.ts'
import { ROLE_PATTERN } from './roles.ts'

const port = z.coerce.number().int().min(0).max(65535)
const url = z.url({ protocol: /^(https?|wss?|postgres(ql)?|rediss?)$/ })
const privateKey = z
  .string()
  .regex(/^0x[0-9a-fA-F]{64}$/, 'expected 0x followed by 64 hex digits')
  .transform(secret)
const secretString = z.string().min(1).transform(secret)
const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'expected 0x followed by 40 hex digits')
const positiveInt = z.coerce.number().int().positive()
const nonNegativeInt = z.coerce.number().int().min(0)
/**
 * `name=0x…` pairs, comma-separated: contract addresses that replace those of the deployment
 * (CONTRACTS_FILE, the profile, the devnet). `none` removes an optional contract. The names are
 * checked against the contract registry when the deployment is read (chain/deployment.ts).
 */
const contractAddresses = z.string().transform((value, ctx): Record<string, string | null> => {
  const out: Record<string, string | null> = {}
  for (const entry of value.split(',').map((e) => e.trim()).filter(Boolean)) {
    const match = /^(\w+)\s*=\s*(0x[0-9a-fA-F]{40}|none)$/.exec(entry)
    if (!match) {
      ctx.addIssue({ code: 'custom', message: `expected name=0x followed by 40 hex digits (or name=none), got ${JSON.stringify(entry)}` })
      return z.NEVER
    }
    out[match[1]!] = match[2] === 'none' ? null : match[2]!
  }
  return out
})
const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes')

/**
 * Which X-Forwarded-For hops to believe, in the forms Fastify's trustProxy takes: none, a hop
 * count, or the proxies' addresses. `true` (believe every hop) is refused: the left-most entry is
 * whatever the client wrote, so every per-address limit could be dodged by rotating it.
 */
const trustProxy = z
  .string()
  .transform((value, ctx): false | number | string => {
    const v = value.trim().toLowerCase()
    if (v === '' || v === 'false' || v === '0' || v === 'no') return false
    if (v === 'true' || v === 'yes') {
      ctx.addIssue({ code: 'custom', message: 'true would believe the X-Forwarded-For entry the client writes; give the number of proxies in front of the service (1 for one load balancer) or their addresses' })
      return z.NEVER
    }
    if (/^\d+$/.test(v)) return Number(v)
    const entries = v.split(',').map((entry) => entry.trim()).filter(Boolean)
    const ip = /^(\d{1,3}(\.\d{1,3}){3}|[0-9a-f:]+)(\/\d{1,3})?$/
    const bad = entries.find((entry) => !ip.test(entry) && !['loopback', 'linklocal', 'uniquelocal'].includes(entry))
    if (bad) {
      ctx.addIssue({ code: 'custom', message: `expected false, a hop count or comma-separated proxy addresses/CIDRs; ${JSON.stringify(bad)} is none of these` })
      return z.NEVER
    }
    return entries.join(',')
  })

/**
 * Every environment variable the service reads, with the embedded-mode default. Unset
 * optional variables select the embedded implementation (docs/contributors/design.md, "Two modes,
 * one code path"). docs/operators/configuration.md's table is generated from the `describe` texts
 * (a test checks).
 * Rules spanning several variables (a provider and its key, a real chain and its keys) are
 * checked by the refinement at the end, so loadConfig rejects them naming the variable.
 * RPC_URL without CONTRACTS_FILE is only valid against the embedded devnet; that needs the
 * network, so `npm start` checks it before building the app (exit 78 naming CONTRACTS_FILE).
 * No variable was added or renamed by these rules (the generated table is unchanged).
 */
export const envSchema = z.object({
  HOST: z.string().default('127.0.0.1').describe('Interface the HTTP service binds to.'),
  PORT: port.default(3000).describe('HTTP port of the service.'),
  PUBLIC_BASE_URL: url
    .optional()
    .describe('Absolute URL clients reach the service at (x402 resource, manifests, IPFS gateway links). Default http://HOST:PORT.'),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
    .default('info')
    .describe('Log level.'),
  DATA_DIR: z.string().default('./data').describe('Directory of the embedded database and IPFS store.'),

  ROLE: z
    .string()
    .regex(ROLE_PATTERN, 'expected all, or a comma-separated set of api, worker, indexer')
    .default('all')
    .describe('What this process runs: all, or a comma-separated set of api (HTTP API and MCP), worker (owed submissions), indexer (follows the chain). See Production layout.'),

  NETWORK: z
    .enum(['devnet', 'megaeth'])
    .default('devnet')
    .describe('devnet: the embedded devnet (or RPC_URL and CONTRACTS_FILE). megaeth: the shipped MegaETH mainnet profile deploy/megaeth.json (contracts, RPC, explorer, start block); every variable set overrides it. See MegaETH mainnet.'),
  RPC_URL: url
    .optional()
    .describe('JSON-RPC URL of the chain (chain ID 4326). Unset: start or reuse the embedded devnet (NETWORK=megaeth: the public MegaETH RPC).'),
  RPC_WS_URL: z
    .union([z.url({ protocol: /^wss?$/ }), z.literal('none')])
    .optional()
    .describe('Websocket JSON-RPC URL whose eth_subscribe("newHeads") wakes the indexer at each new block, so reads see changes made outside the service at once; none: poll only (INDEXER_POLL_MS). Default: the devnet\'s own (ws:// on its port) on the embedded devnet; none with RPC_URL and CONTRACTS_FILE.'),
  RPC_WS_KEEPALIVE_MS: positiveInt
    .default(20_000)
    .describe('A message (eth_chainId) sent this often on the RPC websocket keeps it open: providers drop idle ones (MegaETH after 30 s).'),
  RPC_TIMEOUT_MS: positiveInt.default(10_000).describe('Longest wait for one HTTP JSON-RPC attempt; a read past it is tried again (RPC_RETRIES).'),
  RPC_RETRIES: nonNegativeInt
    .default(4)
    .describe('Further attempts of a JSON-RPC call after a 429, a 5xx, a timeout or a dropped connection (a transaction send only after a 429: its sender reads the chain instead).'),
  RPC_RETRY_BASE_MS: positiveInt.default(250).describe('First backoff before a JSON-RPC call is tried again; doubles per attempt (with jitter).'),
  RPC_RETRY_MAX_MS: positiveInt
    .default(10_000)
    .describe('Longest single wait before a JSON-RPC call is tried again; a 429 whose Retry-After asks for longer fails the call instead. While a Retry-After runs, no request of the process is sent.'),
  PUBLIC_RPC_URL: url
    .optional()
    .describe('RPC URL announced to clients as chain.rpc. Default: the devnet\'s URL on the embedded devnet; with CONTRACTS_FILE, its network.rpc (NETWORK=megaeth: https://mainnet.megaeth.com/rpc), else MegaETH\'s public RPC; never RPC_URL, which may hold a provider key.'),
  DEVNET_RPC_PORT: port.default(8545).describe('Port of the embedded devnet JSON-RPC (embedded mode).'),
  EXPLORER_URL: url.default('https://megaexplorer.xyz').describe('Block explorer base URL used in links.'),
  CONTRACTS_FILE: z
    .string()
    .optional()
    .describe('JSON file mapping contract names to addresses (production; deploy/megaeth.json is one). Unset: read from the devnet (NETWORK=megaeth: deploy/megaeth.json).'),
  CONTRACT_ADDRESSES: contractAddresses
    .optional()
    .describe('Comma-separated name=0x… pairs that replace addresses of the deployment (e.g. pair=0x…,governance=0x…); name=none removes an optional contract. Supplies a contract the profile lacks (its operations answer 503 NOT_DEPLOYED until then).'),
  FUND_WALLET: address.optional().describe('Fund ("tren fund") wallet receiving half of each burn (production).'),
  FACILITATOR_ADDRESS: address.optional().describe('x402 payTo address (production; the facilitator).'),
  CONFIRMATIONS: nonNegativeInt.default(0).describe('Blocks a burn must be buried under before it is accepted.'),
  BURN_MAX_AGE_SECONDS: positiveInt
    .default(7 * 24 * 3600)
    .describe('Oldest burn transfer accepted for a portrait, in seconds.'),

  DATABASE_URL: url.optional().describe('PostgreSQL URL. Unset: embedded PGlite in DATA_DIR.'),
  REDIS_URL: url.optional().describe('Redis URL for cross-instance events and rate limits. Unset: in process.'),
  REDIS_PREFIX: z.string().regex(/^[\w.-]+$/).default('b2c').describe('Prefix of every Redis key and channel, so deployments can share a server.'),

  FACILITATOR_URL: url.optional().describe('x402 facilitator base URL (/verify, /settle). Unset: built-in facilitator.'),
  FACILITATOR_API: z
    .enum(['standard', 'settle-only'])
    .default('standard')
    .describe('API of FACILITATOR_URL: standard (x402 /verify, /settle, /supported) or settle-only (only POST /settle; payments are verified here, on the chain).'),
  FACILITATOR_PATH_PREFIX: z
    .string()
    .regex(/^(\/[\w.~-]+)*\/?$/, 'expected a path such as /v1')
    .default('')
    .describe('Path prefix of the facilitator endpoints, e.g. /v1 for POST /v1/settle.'),
  FACILITATOR_API_KEY: secretString.optional().describe('Bearer key for FACILITATOR_URL (sent as Authorization: Bearer <key>).'),
  FACILITATOR_TIMEOUT_MS: positiveInt
    .default(30_000)
    .describe('Longest wait for an answer of FACILITATOR_URL; past it a settlement is unknown and is read from the chain.'),
  FACILITATOR_PRIVATE_KEY: privateKey
    .optional()
    .describe('Key of the built-in facilitator (pays settlement gas). Default: devnet account 2.'),

  IMAGE_PROVIDER: z
    .enum(['local', 'replicate', 'openai'])
    .default('local')
    .describe('Image generator: local stylizer, Replicate or OpenAI.'),
  STYLIZER_THREADS: positiveInt
    .optional()
    .describe('Worker threads of the local stylizer (IMAGE_PROVIDER=local), started as portraits arrive. Default: the number of CPU cores.'),
  REPLICATE_API_TOKEN: secretString.optional().describe('Replicate API token (IMAGE_PROVIDER=replicate).'),
  OPENAI_API_KEY: secretString.optional().describe('OpenAI API key (IMAGE_PROVIDER=openai).'),

  IPFS_PROVIDER: z
    .enum(['local', 'pinata', 'kubo'])
    .default('local')
    .describe('IPFS pinner: built-in store, Pinata or a Kubo node.'),
  PINATA_JWT: secretString.optional().describe('Pinata JWT (IPFS_PROVIDER=pinata).'),
  KUBO_RPC_URL: url.optional().describe('Kubo RPC URL (IPFS_PROVIDER=kubo).'),
  IPFS_GATEWAY_URL: url
    .optional()
    .describe('Gateway base URL for links to pinned content. Default: this service /ipfs.'),

  MINTER_PRIVATE_KEY: privateKey.optional().describe('NFT minter key. Default: devnet account 0.'),
  RELAYER_PRIVATE_KEY: privateKey.optional().describe('Gasless relayer key. Default: devnet account 1.'),

  LOOKSMAXX_WAIT_SECONDS: positiveInt
    .default(90)
    .describe('How long a looksmaxx POST waits for its NFT before answering 502 with the status link (the work goes on).'),
  RETRY_BASE_MS: positiveInt.default(1000).describe('First retry delay of a failed pipeline step; doubles per attempt.'),
  RETRY_MAX_MS: positiveInt.default(60_000).describe('Longest retry delay of a failed pipeline step.'),
  LEASE_MS: positiveInt
    .default(30_000)
    .describe('How long a process holds an owed submission without renewing; a crashed holder is replaced after it.'),
  WORKER_POLL_MS: positiveInt.default(500).describe('How often an idle worker looks for owed submissions.'),
  FAULT_CRASH_AT: z
    .enum(['before_settlement', 'after_settlement', 'after_mint_broadcast'])
    .optional()
    .describe('Test only: the process kills itself (SIGKILL) at this pipeline point, to prove crash recovery.'),
  SENDER_STUCK_MS: positiveInt
    .default(30_000)
    .describe('A transaction of the service without a receipt after this long is replaced (same nonce, fee +25 %).'),
  SENDER_POLL_MS: positiveInt
    .default(20)
    .describe("How often each hot key's nonce on chain is read while one of its transactions waits for a block (never when none does)."),
  INDEXER_POLL_MS: positiveInt.default(1000).describe('How often the indexer looks for new blocks without a new-head subscription (RPC_WS_URL), or after a failed pass; with a live one, every 10 s besides each new head.'),
  INDEXER_PAGE_SIZE: positiveInt.default(2000).describe('Largest block range of one eth_getLogs call (halved when the RPC refuses).'),
  START_BLOCK: nonNegativeInt.optional().describe('First block the indexer reads (production: the deployment block). Default: the devnet\'s deployBlock (after its seed), else the deployment file\'s network.startBlock, else 0.'),
  AGENT_ID: positiveInt.optional().describe('ERC-8004 agent ID of the service (production). Default: the devnet registration.'),
  SSE_LIFETIME_MS: positiveInt.default(55_000).describe('The event stream closes itself after this long (clients reconnect with Last-Event-ID).'),
  SSE_HEARTBEAT_MS: positiveInt.default(15_000).describe('Interval of heartbeat events on the event stream.'),
  SSE_MAX_STREAMS: positiveInt
    .default(10_000)
    .describe('Event streams one process serves at once; past it a new stream is refused with 503 and Retry-After (another instance may serve it).'),
  SSE_MAX_STREAMS_PER_ADDRESS: positiveInt
    .default(20)
    .describe('Event streams one client address may hold open on one process; past it 429 with Retry-After.'),
  SSE_REPLAY_MAX_BYTES: positiveInt
    .default(64 * 1024)
    .describe('Bytes of missed events one stream replays on reconnection (besides at most 500 events); a longer backlog ends with a close event of reason backlog and the next connection pages on.'),
  CACHE_TTL_SECONDS: nonNegativeInt
    .default(5)
    .describe('Longest life of a cached answer (capped per read): only bounds changes no event announces, since every indexed event and every write renews what it changes; 0 turns caching off.'),
  TRUST_PROXY: trustProxy
    .default(false)
    .describe('Proxies in front of the service whose X-Forwarded-For is believed: false (none), comma-separated proxy addresses/CIDRs, or a hop count (1 for one load balancer; each hop must be on a private network). "true" is refused: it would believe the left-most entry, which the client writes.'),
  ALLOWED_HOSTS: z
    .string()
    .default('')
    .describe('Host names (comma-separated) that writes, MCP and /metrics answer for besides localhost, 127.0.0.1, [::1], HOST and the host of PUBLIC_BASE_URL; others get 403 FORBIDDEN_HOST (DNS-rebinding protection). * answers for any host.'),
  METRICS_TOKEN: secretString
    .optional()
    .describe('Bearer token /metrics requires (Authorization: Bearer ...). Unset: /metrics answers clients on loopback or a private network only (401 for others).'),
  READY_MAX_INDEXER_LAG: nonNegativeInt
    .default(100)
    .describe('Largest indexer lag, in blocks behind the head, at which /readyz still answers 200.'),
  RATE_LIMIT_WRITES_PER_MINUTE: nonNegativeInt
    .default(120)
    .describe('Writes (POSTs that act or store) per client IP per minute; 0 turns the limit off. Shared through REDIS_URL.'),
  RATE_LIMIT_WALLET_WRITES_PER_MINUTE: nonNegativeInt
    .default(30)
    .describe('Writes per wallet (burnerAddress, burner, wallet or address of the request) per minute; 0 turns the limit off.'),
  RATE_LIMIT_EXPENSIVE_PER_MINUTE: nonNegativeInt
    .default(600)
    .describe('Expensive reads (uncached per-wallet chain reads, quotes, builders, chat; an MCP tool call counts as its operation) per client IP per minute; 0 turns the limit off.'),
  RATE_LIMIT_WALLET_EXPENSIVE_PER_MINUTE: nonNegativeInt
    .default(240)
    .describe('Expensive reads per wallet per minute; 0 turns the limit off.'),
  RATE_LIMIT_WINDOW_SECONDS: positiveInt
    .default(60)
    .describe('Length of a rate-limit window, in seconds: the RATE_LIMIT_*_PER_MINUTE counts are per window (a shorter one suits tests).'),
  RATE_LIMIT_READS_PER_MINUTE: nonNegativeInt
    .default(0)
    .describe('Cached public reads per client IP per minute; 0 (default) leaves them unlimited (they are served from memory).'),
  BODY_LIMIT_BYTES: positiveInt
    .default(64 * 1024)
    .describe('Largest JSON body of a POST, in bytes, except portrait uploads (7 MiB: a 4 MB image in base64); larger bodies get 413.'),
  CORS_ORIGINS: z
    .string()
    .default('*')
    .describe('Origins allowed by CORS, comma-separated, or * (default: any origin; no credentials are ever allowed).'),
  CHAT_LLM_URL: url
    .optional()
    .describe('OpenAI-compatible chat-completions base URL that refines unsure chat classifications. Unset: rules only.'),
  CHAT_LLM_API_KEY: secretString.optional().describe('Bearer key for CHAT_LLM_URL (optional for local servers).'),
  CHAT_LLM_MODEL: z.string().min(1).default('gpt-4o-mini').describe('Model name sent to CHAT_LLM_URL.'),
  CHAT_LLM_TIMEOUT_MS: positiveInt.default(4000).describe('Longest wait for CHAT_LLM_URL; past it the rule classification stands.'),
}).superRefine((env, ctx) => {
  // Rules that span several variables: each issue names the variable that is missing.
  const requires = (variable: keyof typeof env, when: string) =>
    ctx.addIssue({ code: 'custom', path: [variable], message: `required when ${when}` })
  if (env.IMAGE_PROVIDER === 'replicate' && !env.REPLICATE_API_TOKEN) requires('REPLICATE_API_TOKEN', 'IMAGE_PROVIDER=replicate')
  if (env.IMAGE_PROVIDER === 'openai' && !env.OPENAI_API_KEY) requires('OPENAI_API_KEY', 'IMAGE_PROVIDER=openai')
  if (env.IPFS_PROVIDER === 'pinata' && !env.PINATA_JWT) requires('PINATA_JWT', 'IPFS_PROVIDER=pinata')
  if (env.IPFS_PROVIDER === 'kubo' && !env.KUBO_RPC_URL) requires('KUBO_RPC_URL', 'IPFS_PROVIDER=kubo')
  // A contract registry means a real chain: the service's hot keys have no devnet default there
  // (an external facilitator pays its own gas, so FACILITATOR_URL replaces its key).
  if (env.CONTRACTS_FILE) {
    if (!env.MINTER_PRIVATE_KEY) requires('MINTER_PRIVATE_KEY', 'CONTRACTS_FILE is set (a real chain)')
    if (!env.RELAYER_PRIVATE_KEY) requires('RELAYER_PRIVATE_KEY', 'CONTRACTS_FILE is set (a real chain)')
    if (!env.FACILITATOR_PRIVATE_KEY && !env.FACILITATOR_URL) {
      requires('FACILITATOR_PRIVATE_KEY', 'CONTRACTS_FILE is set (a real chain) and FACILITATOR_URL is not')
    }
    if (!env.RPC_URL) requires('RPC_URL', 'CONTRACTS_FILE is set (its contracts live on that chain, not on the embedded devnet)')
  }
})

export type Env = z.output<typeof envSchema>
export type EnvInput = Partial<Record<keyof z.input<typeof envSchema>, string>>
