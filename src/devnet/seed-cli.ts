import { startDevnet } from './start-devnet.ts'

// Run at install: deploys and seeds a devnet once and journals the seed (.cache/devnet), so
// the first `npm start` replays it instead of deploying (src/devnet/seed-journal.ts). The
// journal is keyed by the agent URI written on chain, so it serves the default PORT/HOST.
const started = Date.now()
const serviceUrl = process.env.PUBLIC_BASE_URL ?? `http://${process.env.HOST ?? '127.0.0.1'}:${process.env.PORT ?? 3000}`
const devnet = await startDevnet({ host: '127.0.0.1', port: 0, serviceUrl })
await devnet.close()
console.log(`devnet seed ${devnet.seed === 'replayed' ? 'already journaled' : 'deployed and journaled'} in ${Date.now() - started} ms`)
