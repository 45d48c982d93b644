/**
 * The service's public HTTP API as the CLI sees it: JSON in, JSON out, and the error body of
 * the service turned into an ApiError that keeps its code and request id.
 */
export class ApiError extends Error {
  /** Lines the CLI adds for the user (how to retry, where to look); printed after the message. */
  readonly hints: string[] = []

  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly requestId?: string,
    readonly body?: unknown,
  ) {
    super(message)
    this.name = 'ApiError'
  }

  /** The `details` of the service's error body, when it has one. */
  get details(): Record<string, unknown> | undefined {
    const details = (this.body as { error?: { details?: unknown } } | undefined)?.error?.details
    return details && typeof details === 'object' ? (details as Record<string, unknown>) : undefined
  }
}

export type ApiResponse = { status: number; body: any; headers: Headers }
export type Query = Record<string, string | number | undefined>

export function createApi(baseUrl: string) {
  const root = baseUrl.replace(/\/+$/, '')

  async function request(method: string, path: string, init: { query?: Query; body?: unknown; accept?: number[] } = {}): Promise<ApiResponse> {
    const url = new URL(root + path)
    for (const [key, value] of Object.entries(init.query ?? {})) if (value !== undefined) url.searchParams.set(key, String(value))
    let response: Response
    try {
      response = await fetch(url, {
        method,
        headers: init.body === undefined ? { accept: 'application/json' } : { accept: 'application/json', 'content-type': 'application/json' },
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
      })
    } catch (cause) {
      throw new ApiError(0, 'SERVICE_UNREACHABLE', `cannot reach the service at ${root} (${(cause as Error).cause ?? (cause as Error).message}); is it running? (npm start)`)
    }
    const text = await response.text()
    let body: any = text
    try {
      body = text ? JSON.parse(text) : null
    } catch {
      // not JSON: keep the text for the message below
    }
    const accepted = init.accept ?? []
    if (!response.ok && !accepted.includes(response.status)) {
      const error = body && typeof body === 'object' ? body.error ?? body : {}
      const code = typeof error.code === 'string' ? error.code : `HTTP_${response.status}`
      const message = typeof error.message === 'string' ? error.message : typeof body === 'string' ? body.slice(0, 200) : response.statusText
      throw new ApiError(response.status, code, message, response.headers.get('x-request-id') ?? error.requestId, body)
    }
    return { status: response.status, body, headers: response.headers }
  }

  return {
    url: root,
    get: (path: string, query?: Query, accept?: number[]) => request('GET', path, { query, accept }),
    post: (path: string, body: unknown, accept?: number[]) => request('POST', path, { body, accept }),
  }
}

export type Api = ReturnType<typeof createApi>
