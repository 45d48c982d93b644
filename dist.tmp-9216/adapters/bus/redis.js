import { Redis } from 'ioredis';
import { reportOutages } from "./redis-outages.js";
/** Messages kept while Redis is away; older ones give way (events stay in the store, for clients to replay). */
const MAX_PENDING = 10_000;
/**
 * Redis pub/sub: an event published by any instance reaches the subscribers of every
 * instance, including this one (through Redis, so all instances see one order).
 * Invalidations of cached answers travel on a second channel.
 */
export async function createRedisBus(url, prefix = 'b2c', warn) {
    const CHANNEL = `${prefix}:events`;
    const INVALIDATIONS = `${prefix}:invalidations`;
    // No offline queue: while Redis is away a publish fails at once instead of waiting for up to
    // two reconnection attempts (seconds each; a looksmaxx publishes several times, and its POST
    // took 28 s during an outage). Events are stored before they are published, and subscribers
    // reread what they missed when their connection returns (subscribeReconnects).
    const publisher = new Redis(url, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0 });
    const subscriber = new Redis(url, { lazyConnect: true });
    reportOutages(publisher, 'event bus (publish)', warn);
    reportOutages(subscriber, 'event bus (subscribe)', warn);
    await Promise.all([publisher.connect(), subscriber.connect()]);
    const listeners = new Set();
    const invalidationListeners = new Set();
    subscriber.on('message', (channel, message) => {
        let parsed;
        try {
            parsed = JSON.parse(message);
        }
        catch {
            return;
        }
        if (channel === INVALIDATIONS)
            for (const listener of invalidationListeners)
                void listener(parsed);
        else
            for (const listener of listeners)
                listener(parsed);
    });
    await subscriber.subscribe(CHANNEL, INVALIDATIONS);
    // After an outage ioredis reconnects by itself; once the subscription is confirmed again
    // (subscribing twice is harmless), whatever was published meanwhile is known to be missed.
    const reconnectListeners = new Set();
    let lost = false;
    subscriber.on('close', () => {
        lost = true;
    });
    subscriber.on('ready', () => {
        if (!lost)
            return;
        lost = false;
        subscriber
            .subscribe(CHANNEL, INVALIDATIONS)
            .then(() => {
            for (const listener of reconnectListeners)
                listener();
        })
            .catch(() => {
            lost = true;
        });
    });
    // What could not be published while Redis was away, sent in order once the publisher is back:
    // the events are stored, but the live streams of every instance would never hear of them
    // (a stream skips an event older than the last it sent, so later ones wait behind these).
    const pending = [];
    let flushing = false;
    async function flush() {
        if (flushing || publisher.status !== 'ready')
            return;
        flushing = true;
        try {
            while (pending.length > 0) {
                const [channel, message] = pending[0];
                await publisher.publish(channel, message);
                pending.shift();
            }
        }
        catch {
            // Away again: the next 'ready' goes on from here.
        }
        finally {
            flushing = false;
        }
    }
    publisher.on('ready', () => void flush());
    async function send(channel, message) {
        if (pending.length === 0) {
            try {
                await publisher.publish(channel, message);
                return;
            }
            catch {
                // Queued below; the outage itself is reported by reportOutages.
            }
        }
        pending.push([channel, message]);
        if (pending.length > MAX_PENDING)
            pending.shift();
        void flush();
    }
    return {
        async publish(event) {
            await send(CHANNEL, JSON.stringify(event));
        },
        subscribe(listener) {
            listeners.add(listener);
            return () => listeners.delete(listener);
        },
        async publishInvalidation(message) {
            await send(INVALIDATIONS, JSON.stringify(message));
        },
        subscribeInvalidations(listener) {
            invalidationListeners.add(listener);
            return () => invalidationListeners.delete(listener);
        },
        subscribeReconnects(listener) {
            reconnectListeners.add(listener);
            return () => reconnectListeners.delete(listener);
        },
        async close() {
            reconnectListeners.clear();
            listeners.clear();
            invalidationListeners.clear();
            subscriber.disconnect();
            publisher.disconnect();
        },
    };
}
//# sourceMappingURL=redis.js.map