export type ImageMime = 'image/jpeg' | 'image/png' | 'image/webp'

/** Turns an uploaded portrait into the enhanced one. */
export type ImageGenerator = {
  name: string
  /** `seed` (the burn hash) makes the result reproducible, so a retry pins the same bytes. */
  generate(input: { image: Uint8Array; mimeType: ImageMime; seed: string }): Promise<{ image: Uint8Array; mimeType: 'image/png'; faceFound?: boolean }>
  close?(): Promise<void>
}
