import sharp from 'sharp';
import { createHash } from 'node:crypto';
import { createFaceDetector } from "./face-landmarks.js";
import { PORTRAIT_DECODE } from "./decode-options.js";
export const OUTPUT_SIZE = 1024;
const BACKGROUND = { r: 0x19, g: 0x19, b: 0x1a };
const LASER_CORE = '#FF8AA8';
const LASER_GLOW = '#F786C6';
/** Where the beam runs when no face is found: a fixed height across the centre. */
export const FALLBACK_EYE_LINE = 0.42;
/** Grey levels below which `lowFraction` and `highFraction` of the pixels fall. */
function percentiles(gray, lowFraction, highFraction) {
    const histogram = new Uint32Array(256);
    for (let i = 0; i < gray.length; i++)
        histogram[gray[i]]++;
    const find = (fraction) => {
        let seen = 0;
        for (let level = 0; level < 256; level++) {
            seen += histogram[level];
            if (seen >= fraction * gray.length)
                return level;
        }
        return 255;
    };
    return [find(lowFraction), find(highFraction)];
}
let fadeTable;
/** How much each output pixel fades into the background: 0 in the middle, 1 in the corners. */
function fadeMap() {
    if (fadeTable)
        return fadeTable;
    const table = new Float32Array(OUTPUT_SIZE * OUTPUT_SIZE);
    const centre = OUTPUT_SIZE / 2;
    for (let y = 0; y < OUTPUT_SIZE; y++) {
        for (let x = 0; x < OUTPUT_SIZE; x++) {
            const distance = Math.hypot(x - centre, y - centre) / (OUTPUT_SIZE * 0.72);
            table[y * OUTPUT_SIZE + x] = Math.min(1, Math.max(0, (distance - 0.55) / 0.45)) ** 1.5;
        }
    }
    return (fadeTable = table);
}
/** A small deterministic PRNG (xorshift128) seeded from a string, for reproducible grain. */
function seededRandom(seed) {
    const h = createHash('sha256').update(seed).digest();
    let [a, b, c, d] = [h.readUInt32LE(0), h.readUInt32LE(4), h.readUInt32LE(8), h.readUInt32LE(12) || 1];
    return () => {
        const t = a ^ (a << 11);
        a = b;
        b = c;
        c = d;
        d = (d ^ (d >>> 19) ^ (t ^ (t >>> 8))) >>> 0;
        return d / 4294967296;
    };
}
function largest(faces) {
    return faces.reduce((best, f) => (!best || f.box.width * f.box.height > best.box.width * best.box.height ? f : best), undefined);
}
/**
 * The beam and the eye glows as two SVG layers: a soft glow screened onto the portrait, and
 * the hot pink cores painted over it, so the eyes read pink whatever the skin tone beneath.
 */
function laserLayers(left, right, faceFound) {
    const size = OUTPUT_SIZE;
    const distance = Math.max(40, Math.hypot(right.x - left.x, right.y - left.y));
    const slope = faceFound && right.x !== left.x ? (right.y - left.y) / (right.x - left.x) : 0;
    const yAt = (x) => (left.y + slope * (x - left.x)).toFixed(1);
    const beam = Math.max(3, distance * 0.045);
    const eyes = faceFound ? [left, right] : [];
    const svg = (body, defs = '') => Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}"><defs>${defs}</defs>${body}</svg>`);
    // The beam's glow is a band whose opacity falls off across it (a gradient, cheaper than a blur).
    const halfGlow = beam * 4;
    const glow = svg(`<polygon points="0,${(Number(yAt(0)) - halfGlow).toFixed(1)} ${size},${(Number(yAt(size)) - halfGlow).toFixed(1)} ${size},${(Number(yAt(size)) + halfGlow).toFixed(1)} 0,${(Number(yAt(0)) + halfGlow).toFixed(1)}" fill="url(#band)"/>` +
        eyes.map((e) => `<circle cx="${e.x.toFixed(1)}" cy="${e.y.toFixed(1)}" r="${(distance * 0.6).toFixed(1)}" fill="url(#halo)"/>`).join(''), `<linearGradient id="band" gradientUnits="userSpaceOnUse" x1="0" y1="${(Number(yAt(size / 2)) - halfGlow).toFixed(1)}" x2="0" y2="${(Number(yAt(size / 2)) + halfGlow).toFixed(1)}">` +
        `<stop offset="0" stop-color="${LASER_GLOW}" stop-opacity="0"/><stop offset="0.5" stop-color="${LASER_GLOW}" stop-opacity="0.7"/><stop offset="1" stop-color="${LASER_GLOW}" stop-opacity="0"/></linearGradient>` +
        `<radialGradient id="halo"><stop offset="0" stop-color="${LASER_GLOW}" stop-opacity="0.9"/><stop offset="1" stop-color="${LASER_GLOW}" stop-opacity="0"/></radialGradient>`);
    const core = svg(`<line x1="0" y1="${yAt(0)}" x2="${size}" y2="${yAt(size)}" stroke="${LASER_CORE}" stroke-width="${beam.toFixed(1)}"/>` +
        eyes.map((e) => `<circle cx="${e.x.toFixed(1)}" cy="${e.y.toFixed(1)}" r="${(distance * 0.16).toFixed(1)}" fill="url(#core)"/>`).join(''), `<radialGradient id="core"><stop offset="0" stop-color="${LASER_CORE}" stop-opacity="1"/><stop offset="0.6" stop-color="${LASER_CORE}" stop-opacity="0.9"/><stop offset="1" stop-color="${LASER_GLOW}" stop-opacity="0"/></radialGradient>`);
    return { glow, core };
}
/**
 * The embedded image generator: a square black-and-white portrait with high contrast and
 * film grain, fading into a #19191A background, with a pink-purple laser glow through both
 * eyes located by a face-landmark model. No key, no network. Without a face it keeps the
 * centre crop and draws the beam at a fixed height (42 % from the top), with no eye glows.
 */
export function createLocalStylizer(options = {}) {
    let detector;
    const getDetector = () => (detector ??= (options.detector ?? createFaceDetector)());
    return {
        name: 'local-stylizer',
        async generate({ image, seed }) {
            // Read as the pre-payment check read it: what it accepted is paid for and must be generated.
            const decode = () => sharp(image, PORTRAIT_DECODE).rotate().resize(OUTPUT_SIZE, OUTPUT_SIZE, { fit: 'inside', withoutEnlargement: true });
            // The grey copy is decoded on libuv threads while the face is being found.
            const [source, grayFrame] = await Promise.all([
                decode().removeAlpha().raw().toBuffer({ resolveWithObject: true }),
                decode().toColourspace('b-w').raw().toBuffer(),
            ]);
            const { width, height } = source.info;
            const face = largest(await (await getDetector()).detect(source.data, width, height));
            // Square crop around the face (or the centre), scaled to the output size.
            const side = Math.min(width, height);
            const cx = face ? face.box.x + face.box.width / 2 : width / 2;
            const cy = face ? face.box.y + face.box.height / 2 : height / 2;
            const left = Math.round(Math.min(Math.max(cx - side / 2, 0), width - side));
            const top = Math.round(Math.min(Math.max(cy - side / 2, 0), height - side));
            const scale = OUTPUT_SIZE / side;
            const toOutput = (p) => ({ x: (p.x - left) * scale, y: (p.y - top) * scale });
            const gray = await sharp(grayFrame, { raw: { width, height, channels: 1 } })
                .extract({ left, top, width: side, height: side })
                .resize(OUTPUT_SIZE, OUTPUT_SIZE)
                // Keep one channel: libvips would otherwise hand back sRGB.
                .toColourspace('b-w')
                .raw()
                .toBuffer();
            const [low, high] = percentiles(gray, 0.01, 0.99);
            const gain = (255 / Math.max(1, high - low)) * 1.35;
            // Grain and the fade to the background, in one pass over the pixels.
            const random = seededRandom(seed);
            const fades = fadeMap();
            const rgb = Buffer.alloc(OUTPUT_SIZE * OUTPUT_SIZE * 3);
            for (let i = 0; i < OUTPUT_SIZE * OUTPUT_SIZE; i++) {
                // Stretch to full range with extra contrast around mid-grey, then grain.
                const contrasted = (gray[i] - low) * gain - 0.175 * 255;
                const value = Math.min(255, Math.max(0, contrasted + (random() - 0.5) * 34));
                const fade = fades[i];
                rgb[i * 3] = value * (1 - fade) + BACKGROUND.r * fade;
                rgb[i * 3 + 1] = value * (1 - fade) + BACKGROUND.g * fade;
                rgb[i * 3 + 2] = value * (1 - fade) + BACKGROUND.b * fade;
            }
            const leftEye = face ? toOutput(face.leftEye) : { x: OUTPUT_SIZE * 0.38, y: OUTPUT_SIZE * FALLBACK_EYE_LINE };
            const rightEye = face ? toOutput(face.rightEye) : { x: OUTPUT_SIZE * 0.62, y: OUTPUT_SIZE * FALLBACK_EYE_LINE };
            const lasers = laserLayers(leftEye, rightEye, Boolean(face));
            const png = await sharp(rgb, { raw: { width: OUTPUT_SIZE, height: OUTPUT_SIZE, channels: 3 } })
                .composite([
                { input: lasers.glow, blend: 'screen' },
                { input: lasers.core, blend: 'over' },
            ])
                .removeAlpha()
                .png({ compressionLevel: 1, adaptiveFiltering: false })
                .toBuffer();
            return { image: new Uint8Array(png), mimeType: 'image/png', faceFound: Boolean(face) };
        },
        async close() { },
    };
}
//# sourceMappingURL=local-stylizer.js.map