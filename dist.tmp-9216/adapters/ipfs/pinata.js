import { computeCid } from "./cid.js";
import { pinFailed } from "./upstream.js";
/**
 * Pinata's v3 upload API: multipart `file` with `network=public`, a name and key-values;
 * the answer's `data.cid` is the CID. For a file of one chunk it must equal ours.
 */
export function createPinataPinner(options) {
    const api = (options.apiBaseUrl ?? 'https://uploads.pinata.cloud').replace(/\/$/, '');
    const gateway = (options.gatewayBaseUrl ?? 'https://gateway.pinata.cloud').replace(/\/$/, '');
    const doFetch = options.fetch ?? fetch;
    return {
        name: 'pinata',
        async add(bytes, { name, mimeType }) {
            const form = new FormData();
            form.append('file', new Blob([bytes], { type: mimeType ?? 'application/octet-stream' }), name);
            form.append('network', 'public');
            form.append('name', name);
            form.append('keyvalues', JSON.stringify({ service: 'burn-to-create' }));
            let response;
            try {
                response = await doFetch(`${api}/v3/files`, { method: 'POST', headers: { authorization: `Bearer ${options.jwt}` }, body: form, signal: AbortSignal.timeout(60_000) });
            }
            catch (cause) {
                throw pinFailed('Pinata', undefined, cause);
            }
            if (!response.ok)
                throw pinFailed('Pinata', response.status, new Error(await response.text().catch(() => '')));
            const body = (await response.json());
            const cid = body.data?.cid;
            if (!cid)
                throw pinFailed('Pinata', response.status, new Error('no data.cid in the answer'));
            // Pinata may chunk large files differently; a single block must match exactly.
            if (bytes.length <= 262_144 && cid !== (await computeCid(bytes))) {
                throw pinFailed('Pinata', undefined, new Error(`Pinata returned ${cid}, expected ${await computeCid(bytes)}`));
            }
            return { cid };
        },
        gatewayUrl: (cid) => `${gateway}/ipfs/${cid}`,
    };
}
//# sourceMappingURL=pinata.js.map