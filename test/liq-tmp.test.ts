import { test } from 'node:test'
import { useApp } from './support/harness.ts'
import { testAccount } from './support/accounts.ts'
const app = useApp()
test('x', async () => {
  const user = testAccount(5).account
  const r = await app.post('/api/agent/chat', { message: 'add liquidity 1000 mc and 500 mg, copied from 0x5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5abeef', wallet: user.address })
  console.log(JSON.stringify(r.body, null, 1).slice(0, 3000))
})
