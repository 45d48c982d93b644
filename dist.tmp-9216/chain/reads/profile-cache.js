import { readProfiles } from "./read-profiles.js";
export function createProfileCache(chain, fresh, ttlMs, clock = Date.now) {
    const held = new Map();
    // One read at a time: readers that miss while it runs wait for it instead of reading the
    // same profiles again (a board computed by many readers at once reads them once).
    let reading;
    return {
        async get(addresses) {
            for (;;) {
                const stamp = fresh.stamp(['profiles']);
                const now = clock();
                const missing = addresses.filter((a) => {
                    const entry = held.get(a.toLowerCase());
                    return !entry || entry.until <= now || entry.stamp !== stamp;
                });
                if (missing.length === 0)
                    return new Map(addresses.map((a) => [a.toLowerCase(), held.get(a.toLowerCase()).profile]));
                if (!reading) {
                    reading = readProfiles(chain, missing)
                        .then((read) => {
                        for (const [address, profile] of read)
                            held.set(address, { profile, until: now + ttlMs, stamp });
                    })
                        .finally(() => (reading = undefined));
                    await reading;
                    // What was read answers this caller even if the stamp moved meanwhile.
                    return new Map(addresses.map((a) => [a.toLowerCase(), held.get(a.toLowerCase()).profile]));
                }
                await reading.catch(() => { });
            }
        },
    };
}
//# sourceMappingURL=profile-cache.js.map