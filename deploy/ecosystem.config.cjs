/**
 * pm2 process file for one host without containers: `npm run build`, then
 *   pm2 start deploy/ecosystem.config.cjs
 * Environment (DATABASE_URL, REDIS_URL, RPC_URL, CONTRACTS_FILE, keys, providers) comes from
 * the shell or an env file loaded before; see README "Production layout".
 * api processes listen on 3000, 3001, … (increment_var) behind a reverse proxy; fork mode,
 * since every process is independent and shares its state through PostgreSQL and Redis.
 */
const common = {
  script: 'dist/main.js',
  cwd: __dirname + '/..',
  exec_mode: 'fork',
  // SIGTERM, then up to 30 s to finish in-flight requests and release leases.
  kill_timeout: 30_000,
  max_memory_restart: '1G',
}

module.exports = {
  apps: [
    { ...common, name: 'b2c-api', instances: 2, increment_var: 'PORT', env: { ROLE: 'api', PORT: 3000 } },
    { ...common, name: 'b2c-worker', instances: 2, increment_var: 'PORT', env: { ROLE: 'worker', PORT: 3100 } },
    { ...common, name: 'b2c-indexer', instances: 1, env: { ROLE: 'indexer', PORT: 3200 } },
  ],
}
