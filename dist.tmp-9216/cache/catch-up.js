import { newestKnownBlock } from "../store/indexer-cursor.js";
/** How long a read that asks for a block this instance has not applied waits for it. */
export const MIN_BLOCK_WAIT_MS = 5_000;
const POLL_MS = 100;
/**
 * Raises this instance's known block to what the shared database holds: the indexer's cursor
 * (whichever instance indexes) and the blocks of this service's own mined transactions. Until
 * `minBlock` is reached it wakes the indexer and looks again, up to MIN_BLOCK_WAIT_MS; then the
 * caller answers with what it has, and says which block that is. A block beyond the chain's head
 * (`chainHead`) is not waited for.
 */
export async function catchUp(db, fresh, minBlock = 0n, waitMs = MIN_BLOCK_WAIT_MS, poke, chainHead) {
    const deadline = Date.now() + waitMs;
    for (let first = true;; first = false) {
        const known = await newestKnownBlock(db);
        if (known !== undefined)
            fresh.reached(known);
        if (fresh.block() >= minBlock || Date.now() >= deadline)
            return fresh.block();
        // A block the chain has not produced yet cannot be waited for usefully (a typo, a block
        // number from another chain): answer at once with what there is, as after the wait.
        if (first && chainHead && (await chainHead().catch(() => minBlock)) < minBlock)
            return fresh.block();
        // The indexer of this instance (if it holds the lease) looks at once.
        poke?.();
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
}
//# sourceMappingURL=catch-up.js.map