/** A JSON-RPC error answer, kept with its code: a failed `evm_revert` must fail the test. */
export class JsonRpcError extends Error {
  constructor(
    readonly method: string,
    readonly code: number,
    message: string,
  ) {
    super(`${method} failed (${code}): ${message}`)
    this.name = 'JsonRpcError'
  }
}

/**
 * Calls one JSON-RPC method on `url` and returns its result; an error answer, a non-2xx
 * status or a body without a result throws, so no helper can turn a failure into a value.
 */
export async function rpcCall<T = any>(url: string, method: string, params: unknown[] = []): Promise<T> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })
  const text = await response.text()
  let body: { result?: T; error?: { code: number; message: string } }
  try {
    body = JSON.parse(text)
  } catch {
    throw new JsonRpcError(method, response.status, `not JSON (HTTP ${response.status}): ${text.slice(0, 200)}`)
  }
  if (body.error) throw new JsonRpcError(method, body.error.code, body.error.message)
  if (!response.ok || !('result' in body)) throw new JsonRpcError(method, response.status, `HTTP ${response.status} without a result`)
  return body.result as T
}

/** `rpcCall` bound to one endpoint. */
export function rpcClient(url: string) {
  return <T = any>(method: string, params: unknown[] = []) => rpcCall<T>(url, method, params)
}
