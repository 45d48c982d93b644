import { createHash } from 'node:crypto';
export function createResponseCache(maxEntries = 10_000, clock = Date.now) {
    const entries = new Map();
    const inFlight = new Map();
    const refresh = (key, ttlMs, staleMs, compute, stamp, block) => {
        const flightKey = `${key}\n${stamp}`;
        const run = compute()
            .then((computed) => {
            const value = { ...computed, block };
            // Only successes are cached: a failed quote must be retried by the next caller. An
            // answer computed before a change that happened meanwhile is stored under its own
            // stamp, so it is not served to anyone who asks after the change.
            if (value.status < 400 && ttlMs > 0) {
                if (entries.size >= maxEntries && !entries.has(key))
                    entries.delete(entries.keys().next().value);
                const now = clock();
                const current = entries.get(key);
                if (!current || current.stamp !== stamp || (current.block ?? -1n) <= (block ?? -1n)) {
                    entries.set(key, { value, expires: now + ttlMs, staleUntil: now + ttlMs + staleMs, stamp, block });
                }
            }
            return value;
        })
            .finally(() => inFlight.delete(flightKey));
        inFlight.set(flightKey, run);
        return run;
    };
    const usableOf = (key, freshness) => {
        const hit = entries.get(key);
        return hit && hit.stamp === (freshness.stamp ?? '') && (freshness.minBlock === undefined || (hit.block ?? -1n) >= freshness.minBlock) ? hit : undefined;
    };
    return {
        peek(key, freshness = {}) {
            const usable = usableOf(key, freshness);
            return usable && usable.expires > clock() ? usable.value : undefined;
        },
        async get(key, ttlMs, compute, staleMs = 0, freshness = {}) {
            const stamp = freshness.stamp ?? '';
            const now = clock();
            const usable = usableOf(key, freshness);
            if (usable && usable.expires > now)
                return usable.value;
            const pending = inFlight.get(`${key}\n${stamp}`);
            if (usable && usable.staleUntil > now) {
                // A failed background refresh leaves the stale answer until staleUntil; after that
                // the next caller computes, and sees the failure.
                if (!pending)
                    refresh(key, ttlMs, staleMs, compute, stamp, freshness.block).catch(() => { });
                return usable.value;
            }
            // A computation already running for this stamp started after the change the caller
            // may have made: joining it is safe unless the caller needs a newer block than it has.
            if (pending && freshness.minBlock === undefined)
                return pending;
            return refresh(key, ttlMs, staleMs, compute, stamp, freshness.block);
        },
        clear: () => entries.clear(),
    };
}
export function etagOf(bytes) {
    return `"${createHash('sha1').update(bytes).digest('base64url').slice(0, 27)}"`;
}
//# sourceMappingURL=response-cache.js.map