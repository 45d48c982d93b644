import { createRequire } from 'node:module';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';
const require = createRequire(import.meta.url);
/**
 * Face and iris landmarks from the BlazeFace/FaceMesh/Iris models shipped inside
 * @vladmandic/human, on the WASM backend (no download, no native addon). The Node build
 * that needs tfjs-node is skipped; models are read from the package folder through a
 * file:// loader, since tfjs has no file IO without tfjs-node.
 */
export async function createFaceDetector() {
    const humanDir = path.dirname(require.resolve('@vladmandic/human'));
    const { Human } = require(path.join(humanDir, 'human.node-wasm.js'));
    const wasmDir = path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm.wasm'));
    const modelsDir = path.join(humanDir, '..', 'models');
    const human = new Human({
        backend: 'wasm',
        wasmPath: `${wasmDir}${path.sep}`,
        wasmPlatformFetch: false,
        modelBasePath: `${pathToFileURL(modelsDir).href}/`,
        cacheSensitivity: 0,
        debug: false,
        face: {
            enabled: true,
            // One face (the most confident): a portrait has one subject, and each extra face costs a mesh.
            detector: { maxDetected: 1, rotation: false },
            mesh: { enabled: true },
            // Eye-corner midpoints land within a few pixels of the iris centres and save ~30 ms.
            iris: { enabled: false },
            emotion: { enabled: false },
            description: { enabled: false },
            antispoof: { enabled: false },
            liveness: { enabled: false },
            attention: { enabled: false },
        },
        body: { enabled: false },
        hand: { enabled: false },
        object: { enabled: false },
        gesture: { enabled: false },
        segmentation: { enabled: false },
        filter: { enabled: false },
    });
    human.tf.io.registerLoadRouter((url) => {
        const target = Array.isArray(url) ? url[0] : url;
        if (typeof target !== 'string' || !target.startsWith('file://'))
            return null;
        return {
            load: async () => {
                const file = fileURLToPath(target);
                const json = JSON.parse(await readFile(file, 'utf8'));
                const weights = json.weightsManifest.flatMap((group) => group.weights);
                const buffers = await Promise.all(json.weightsManifest.flatMap((group) => group.paths).map((p) => readFile(path.join(path.dirname(file), p))));
                const all = Buffer.concat(buffers);
                const data = all.buffer.slice(all.byteOffset, all.byteOffset + all.byteLength);
                return human.tf.io.getModelArtifactsForJSON(json, async () => [weights, data]);
            },
        };
    });
    await human.init();
    await human.load();
    async function detect(rgb, width, height) {
        const tensor = human.tf.tensor3d(rgb, [height, width, 3], 'int32');
        try {
            const result = await human.detect(tensor);
            return (result.face ?? [])
                .filter((f) => Array.isArray(f.mesh) && f.mesh.length >= 468)
                .map((f) => {
                const mid = (a, b) => ({ x: (f.mesh[a][0] + f.mesh[b][0]) / 2, y: (f.mesh[a][1] + f.mesh[b][1]) / 2 });
                // Iris centres when the iris model ran, else eye-corner midpoints (within a few px).
                const imageLeft = f.annotations?.rightEyeIris?.[0] ? { x: f.annotations.rightEyeIris[0][0], y: f.annotations.rightEyeIris[0][1] } : mid(33, 133);
                const imageRight = f.annotations?.leftEyeIris?.[0] ? { x: f.annotations.leftEyeIris[0][0], y: f.annotations.leftEyeIris[0][1] } : mid(362, 263);
                const [x, y, w, h] = f.box;
                return { box: { x, y, width: w, height: h }, leftEye: imageLeft, rightEye: imageRight, score: f.score ?? f.faceScore ?? 0 };
            });
        }
        finally {
            human.tf.dispose(tensor);
        }
    }
    // The first detection compiles kernels and is 2-3 times slower: pay for it at start-up.
    const blank = new Uint8Array(256 * 256 * 3).fill(128);
    await detect(blank, 256, 256);
    return { detect };
}
//# sourceMappingURL=face-landmarks.js.map