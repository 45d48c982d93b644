import sharp from 'sharp'

/** Any generated image as the square 1024² PNG the NFT uses. */
export async function toSquarePng(bytes: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await sharp(bytes).resize(1024, 1024, { fit: 'cover' }).png().toBuffer())
}
