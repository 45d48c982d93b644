import { pinFailed } from "./upstream.js";
/** A Kubo node's RPC API: `add` with CIDv1 and raw leaves (the CIDs of the embedded store), pinned. */
export function createKuboPinner(options) {
    const rpc = options.rpcUrl.replace(/\/$/, '');
    const doFetch = options.fetch ?? fetch;
    return {
        name: 'kubo',
        async add(bytes, { name, mimeType }) {
            const form = new FormData();
            form.append('file', new Blob([bytes], { type: mimeType ?? 'application/octet-stream' }), name);
            let response;
            try {
                response = await doFetch(`${rpc}/api/v0/add?cid-version=1&raw-leaves=true&pin=true`, { method: 'POST', body: form, signal: AbortSignal.timeout(60_000) });
            }
            catch (cause) {
                throw pinFailed('Kubo', undefined, cause);
            }
            if (!response.ok)
                throw pinFailed('Kubo', response.status, new Error(await response.text().catch(() => '')));
            const body = (await response.json());
            if (!body.Hash)
                throw pinFailed('Kubo', response.status, new Error('no Hash in the answer'));
            return { cid: body.Hash };
        },
        async get(cid) {
            const response = await doFetch(`${rpc}/api/v0/cat?arg=${encodeURIComponent(cid)}`, { method: 'POST' }).catch(() => undefined);
            return response?.ok ? new Uint8Array(await response.arrayBuffer()) : null;
        },
        gatewayUrl: (cid) => `${options.gatewayBaseUrl.replace(/\/$/, '')}/ipfs/${cid}`,
    };
}
//# sourceMappingURL=kubo.js.map