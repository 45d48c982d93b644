/**
 * JSON over a real socket, for what is not an app of the harness (a service process, a
 * facilitator, a link an answer names) or where the socket is the point. An app's own routes
 * go through `app.get/post` (inject) instead.
 */
export async function getJson(url: string, init?: RequestInit): Promise<{ status: number; body: any; headers: Headers }> {
  const response = await fetch(url, init)
  const text = await response.text()
  return { status: response.status, body: text ? JSON.parse(text) : undefined, headers: response.headers }
}

export async function postJson(url: string, body: unknown, headers: Record<string, string> = {}) {
  return getJson(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) })
}
