/**
 * pm2 process file for one host without containers: `npm run build`, then
 *   pm2 start deploy/ecosystem.config.cjs
 * Environment (DATABASE_URL, REDIS_URL, RPC_URL, CONTRACTS_FILE, keys, providers) comes from
 * the shell or an env file loaded before; see docs/operators/production.md. Every process gets
 * the environment of the `pm2 start` command.
 * api processes listen on PORT_BASE, PORT_BASE+1, … (increment_var) behind a reverse proxy,
 * workers from PORT_BASE+100 and the indexer on PORT_BASE+200 (health checks only); fork
 * mode, since every process is independent and shares its state through PostgreSQL and Redis.
 * API_INSTANCES and WORKER_INSTANCES (2 each by default) size the two scalable roles.
 * test/ops/pm2.test.ts starts this file with pm2 against PostgreSQL, Redis and a devnet.
 */
const base = Number(process.env.PORT_BASE ?? 3000)
const instances = (name, fallback) => Number(process.env[name] ?? fallback)

const common = {
  script: 'dist/main.js',
  cwd: __dirname + '/..',
  exec_mode: 'fork',
  // pm2 stops with SIGINT by default; the service treats SIGTERM as "stop this process only"
  // (SIGINT is Ctrl-C in a terminal), then has up to 30 s to finish in-flight requests and
  // release its leases.
  kill_signal: 'SIGTERM',
  kill_timeout: 30_000,
  max_memory_restart: '1G',
}

module.exports = {
  apps: [
    { ...common, name: 'b2c-api', instances: instances('API_INSTANCES', 2), increment_var: 'PORT', env: { ROLE: 'api', PORT: base } },
    { ...common, name: 'b2c-worker', instances: instances('WORKER_INSTANCES', 2), increment_var: 'PORT', env: { ROLE: 'worker', PORT: base + 100 } },
    { ...common, name: 'b2c-indexer', instances: 1, env: { ROLE: 'indexer', PORT: base + 200 } },
  ],
}
