/** Where portraits and their metadata are pinned. */
export type IpfsPinner = {
  name: string
  /** Pins the bytes; the same bytes always give the same CID. */
  add(bytes: Uint8Array, opts: { name: string; mimeType?: string }): Promise<{ cid: string }>
  /** The bytes of a CID, where this pinner can serve them (the built-in store can). */
  get?(cid: string): Promise<Uint8Array | null>
  gatewayUrl(cid: string): string
}
