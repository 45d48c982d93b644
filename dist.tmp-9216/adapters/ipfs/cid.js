import { CID } from 'multiformats/cid';
import { sha256 } from 'multiformats/hashes/sha2';
import * as raw from 'multiformats/codecs/raw';
import * as dagPb from '@ipld/dag-pb';
import { UnixFS } from 'ipfs-unixfs';
/** Kubo's defaults: fixed-size chunks of 256 KiB, at most 174 links per node. */
export const CHUNK_SIZE = 262_144;
export const MAX_LINKS = 174;
/**
 * Splits bytes into the blocks `ipfs add --cid-version=1 --raw-leaves` makes: raw leaves of
 * 256 KiB, joined by a balanced tree of UnixFS file nodes (dag-pb). One chunk is its own root.
 */
export async function buildUnixfsFile(bytes) {
    const blocks = [];
    let layer = [];
    for (let offset = 0; offset < bytes.length || offset === 0; offset += CHUNK_SIZE) {
        const chunk = bytes.subarray(offset, offset + CHUNK_SIZE);
        const cid = CID.createV1(raw.code, await sha256.digest(chunk));
        blocks.push({ cid, bytes: chunk });
        layer.push({ cid, fileSize: BigInt(chunk.length), dagSize: BigInt(chunk.length) });
        if (bytes.length === 0)
            break;
    }
    while (layer.length > 1) {
        const parents = [];
        for (let i = 0; i < layer.length; i += MAX_LINKS) {
            const children = layer.slice(i, i + MAX_LINKS);
            const file = new UnixFS({ type: 'file' });
            for (const child of children)
                file.addBlockSize(child.fileSize);
            const encoded = dagPb.encode(dagPb.prepare({ Data: file.marshal(), Links: children.map((c) => ({ Hash: c.cid, Name: '', Tsize: Number(c.dagSize) })) }));
            const cid = CID.createV1(dagPb.code, await sha256.digest(encoded));
            blocks.push({ cid, bytes: encoded });
            parents.push({
                cid,
                fileSize: children.reduce((sum, c) => sum + c.fileSize, 0n),
                dagSize: BigInt(encoded.length) + children.reduce((sum, c) => sum + c.dagSize, 0n),
            });
        }
        layer = parents;
    }
    return { root: layer[0].cid, blocks };
}
/** The CID `ipfs add --cid-version=1 --raw-leaves` prints for these bytes. */
export async function computeCid(bytes) {
    return (await buildUnixfsFile(bytes)).root.toString();
}
/** Parses a CID string; undefined when it is not one. */
export function parseCid(value) {
    try {
        return CID.parse(value);
    }
    catch {
        return undefined;
    }
}
//# sourceMappingURL=cid.js.map