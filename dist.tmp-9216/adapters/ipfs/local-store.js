import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { computeCid, parseCid } from "./cid.js";
/**
 * The embedded IPFS store: files kept on disk under their CID (computed exactly as IPFS
 * does), written atomically, served by the service's own gateway.
 */
export function createLocalIpfsStore(options) {
    const fileOf = (cid) => path.join(options.dir, cid.slice(-2), cid);
    return {
        name: 'local',
        async add(bytes) {
            const cid = await computeCid(bytes);
            const file = fileOf(cid);
            try {
                await readFile(file);
                return { cid };
            }
            catch {
                // not stored yet
            }
            await mkdir(path.dirname(file), { recursive: true });
            const temp = `${file}.${process.pid}.${Date.now()}.tmp`;
            await writeFile(temp, bytes);
            await rename(temp, file);
            return { cid };
        },
        async get(cid) {
            const parsed = parseCid(cid);
            if (!parsed || parsed.version !== 1)
                return null;
            try {
                return new Uint8Array(await readFile(fileOf(parsed.toString())));
            }
            catch {
                return null;
            }
        },
        gatewayUrl: (cid) => `${options.publicBaseUrl.replace(/\/$/, '')}/ipfs/${cid}`,
    };
}
//# sourceMappingURL=local-store.js.map