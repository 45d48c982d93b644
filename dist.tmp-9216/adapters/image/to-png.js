import sharp from 'sharp';
import { PORTRAIT_DECODE } from "./decode-options.js";
/**
 * Any generated image as the square 1024² PNG the NFT uses. Read as leniently as the upload was
 * (a slightly damaged provider image still makes a portrait rather than a retry that never ends).
 */
export async function toSquarePng(bytes) {
    return new Uint8Array(await sharp(bytes, PORTRAIT_DECODE).resize(1024, 1024, { fit: 'cover' }).png().toBuffer());
}
//# sourceMappingURL=to-png.js.map