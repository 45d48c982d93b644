import { randomUUID } from 'node:crypto';
/**
 * What a cached answer depends on. An event that changes one of these bumps its version, and
 * every cached answer that depends on it is recomputed by its next reader:
 * - `pool`: the DEX pool (a swap): price, quotes
 * - `token`: service-token balances (transfers, burns): stats, wallet, identity, portal, plan
 * - `portraits`: portrait NFTs (mints, transfers): gallery, chadboard, stats, metadata, identity, wallet
 * - `profiles`: names and ERC-8004 feedback: chadboard, identity, agent info
 * - `referral`: the referral contract and stored codes: referral reads
 * - `defi`: staking, ranking and governance events: the DeFi activity feed
 */
export const TOPICS = ['pool', 'token', 'portraits', 'profiles', 'referral', 'defi'];
/** Longest a change waits for its renewals before it becomes visible anyway. */
export const RENEW_WAIT_MS = 2_000;
export function createFreshness(bus, log, options = {}) {
    const renewWaitMs = options.renewWaitMs ?? RENEW_WAIT_MS;
    const origin = randomUUID();
    const versions = new Map(TOPICS.map((t) => [t, 0]));
    // Stamps are asked for on every read: each list of topics (an operation's dependsOn, the same
    // array every time) keeps its last stamp until a change bumps the epoch.
    let epoch = 0;
    const stamps = new WeakMap();
    let known = 0n;
    const apply = (topics, block) => {
        if (topics.length)
            epoch++;
        for (const topic of topics)
            if (versions.has(topic))
                versions.set(topic, versions.get(topic) + 1);
        if (block !== undefined && block > known)
            known = block;
    };
    // Announced but not applied yet: a change counts here from the moment it is heard (after its
    // write committed), so a renewal that starts later includes it.
    const announced = new Map(TOPICS.map((t) => [t, 0]));
    let announcedBlock = 0n;
    const renewers = new Map();
    /** A change becomes visible once what renews before it has run (failed renewals included: readers then renew lazily). */
    const settle = async (topics, block) => {
        const runs = new Set();
        for (const topic of topics) {
            if (announced.has(topic))
                announced.set(topic, announced.get(topic) + 1);
            for (const renew of renewers.get(topic) ?? [])
                runs.add(renew);
        }
        if (block !== undefined && block > announcedBlock)
            announcedBlock = block;
        if (runs.size) {
            // Bounded: a store that hangs must not hold the write's answer (readers then renew lazily).
            let timer;
            await Promise.race([
                Promise.allSettled([...runs].map((renew) => renew())),
                new Promise((resolve) => (timer = setTimeout(resolve, renewWaitMs))),
            ]);
            clearTimeout(timer);
        }
        apply(topics, block);
    };
    const unsubscribe = bus.subscribeInvalidations((message) => {
        // Our own messages were applied when they were made.
        if (message.origin === origin)
            return;
        return settle(message.topics, message.block === undefined ? undefined : BigInt(message.block));
    });
    // Invalidations sent while the bus was down never arrived: everything may have changed.
    const unsubscribeReconnects = bus.subscribeReconnects(() => void settle(TOPICS));
    return {
        stamp(topics) {
            const held = stamps.get(topics);
            if (held && held.epoch === epoch)
                return held.stamp;
            const stamp = topics.map((t) => versions.get(t)).join('.');
            stamps.set(topics, { epoch, stamp });
            return stamp;
        },
        block: () => known,
        async changed(topics, block) {
            // Renewed here and told to the others at once: the write answers once both are done.
            await Promise.all([
                settle(topics, block),
                bus
                    .publishInvalidation({ origin, topics: [...topics], block: block?.toString() })
                    .catch((error) => log?.warn({ err: error }, 'could not publish an invalidation; other instances rely on their time to live')),
            ]);
        },
        reached(block) {
            if (block > known)
                known = block;
        },
        ahead(topic) {
            return { version: announced.get(topic) ?? 0, block: announcedBlock > known ? announcedBlock : known };
        },
        renewBefore(topic, renew) {
            let set = renewers.get(topic);
            if (!set)
                renewers.set(topic, (set = new Set()));
            set.add(renew);
            return () => set.delete(renew);
        },
        close() {
            unsubscribe();
            unsubscribeReconnects();
        },
    };
}
//# sourceMappingURL=freshness.js.map