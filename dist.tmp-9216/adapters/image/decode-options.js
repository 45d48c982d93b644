/**
 * How every decoder of a user's portrait reads it: the check made before anything is charged
 * (src/pipeline/parse-portrait.ts) and each generator that decodes it after payment. One
 * setting, so that an image the check accepts is one generation can read: libvips' default
 * (`failOn: 'warning'`) refuses a JPEG with a damaged segment that the check, reading with
 * `failOn: 'error'`, accepted, and such a submission was paid for and could never be minted.
 */
/** Bounds the decoded size, so a small file cannot expand into gigabytes (decompression bomb). */
export const MAX_IMAGE_PIXELS = 40_000_000;
export const PORTRAIT_DECODE = { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'error' };
//# sourceMappingURL=decode-options.js.map