import { startPublicRpcProxy, type PublicRpcBehaviour } from '../../src/devnet/public-rpc-proxy.ts'

/**
 * A JSON-RPC pass-through in front of the devnet that counts requests and can be told to
 * fail, to test how the service behaves when its RPC misbehaves: the public-provider proxy of
 * src/devnet with only the asked-for behaviour. `maxLogsRange` refuses in the plain words
 * ("block range too large: at most N blocks"); anything else of PublicRpcBehaviour may be given.
 */
export async function startRpcProxy(target: string, options: { maxLogsRange?: number; refuseMethods?: string[] } & PublicRpcBehaviour = {}) {
  const proxy = await startPublicRpcProxy(target, { logsErrorStyle: 'plain', wsIdleMs: 0, ...options })
  return {
    ...proxy,
    /** Every JSON-RPC call received over HTTP so far, batches flattened. */
    calls: () => proxy.calls().filter((c) => c.via === 'http'),
    setMode(next: 'pass' | 'fail') {
      proxy.set({ down: next === 'fail' })
    },
  }
}
