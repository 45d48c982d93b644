/** Builds elements from text and attributes only, so nothing read from the API becomes markup. */
type Child = Node | string | number | null | undefined | false
type Attributes = Record<string, string | number | boolean | null | undefined>

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Attributes = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag)
  for (const [name, value] of Object.entries(attributes)) {
    if (value === null || value === undefined || value === false) continue
    element.setAttribute(name, value === true ? '' : String(value))
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue
    element.append(typeof child === 'object' ? child : String(child))
  }
  return element
}

export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const element = document.getElementById(id)
  if (!element) throw new Error(`the page has no #${id}`)
  return element as T
}

/** Only http(s) and same-origin links are followed: a URL from the API is data, not code. */
export function safeUrl(url: string | null | undefined): string | undefined {
  if (!url) return undefined
  return /^(https?:\/\/|\/(?!\/))/i.test(url) ? url : undefined
}

/** GET a JSON document of this service; a failure says which path and status. */
export async function getJson<T>(path: string): Promise<T> {
  const response = await fetch(path, { headers: { accept: 'application/json' } })
  if (!response.ok) throw new Error(`${path} answered ${response.status}`)
  return (await response.json()) as T
}

/** Calls `run` once after `ms` of quiet: a burst of events costs one refresh. */
export function debounce(run: () => void, ms: number): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined
  return () => {
    clearTimeout(timer)
    timer = setTimeout(run, ms)
  }
}
