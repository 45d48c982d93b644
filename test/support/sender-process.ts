/**
 * A separate process that sends COUNT transactions concurrently through the durable sender
 * (devnet account 1), keys PREFIX:0 … PREFIX:COUNT-1. With CRASH_AFTER=n it dies right after
 * storing its n-th transaction, before broadcasting it. Prints the records as JSON.
 */
import { pino } from 'pino'
import { openDb } from '../../src/store/db.ts'
import { createChain } from '../../src/chain/clients.ts'
import { readDevnetDeployment } from '../../src/chain/deployment.ts'
import { createTxSender } from '../../src/chain/sender/tx-sender.ts'
import { testAccount } from './accounts.ts'

const { DATABASE_URL, RPC_URL, COUNT, PREFIX, CRASH_AFTER } = process.env
const deployment = await readDevnetDeployment(RPC_URL!)
const chain = createChain({ rpcUrl: RPC_URL!, publicRpcUrl: RPC_URL!, explorerUrl: 'https://x', contracts: deployment.contracts, fundWallet: deployment.fundWallet, facilitator: deployment.facilitator })
const db = await openDb({ url: DATABASE_URL })
const sender = createTxSender({ db, chain, account: testAccount(1).account, log: pino({ level: 'silent' }) })
await sender.resume()
let stored = 0
const records = await Promise.all(
  Array.from({ length: Number(COUNT) }, (_, i) =>
    sender.sendAndWait(
      { key: `${PREFIX}:${i}`, to: '0x000000000000000000000000000000000000bEEF', data: '0x', value: BigInt(i + 1) },
      {
        timeoutMs: 90_000,
        onStored: () => {
          if (CRASH_AFTER && ++stored >= Number(CRASH_AFTER)) process.kill(process.pid, 'SIGKILL')
        },
      },
    ),
  ),
)
process.stdout.write(JSON.stringify(records.map((r) => ({ key: r.idempotencyKey, nonce: r.nonce, status: r.status }))) + '\n')
await db.close()
process.exit(0)
