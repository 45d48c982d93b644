/** One process: events go straight to this process's subscribers (embedded mode). */
export function createMemoryBus() {
    const listeners = new Set();
    const invalidationListeners = new Set();
    return {
        async publish(event) {
            for (const listener of listeners)
                listener(event);
        },
        subscribe(listener) {
            listeners.add(listener);
            return () => listeners.delete(listener);
        },
        async publishInvalidation(message) {
            // Delivered once every listener has applied it (renewals included): one process, so the
            // publisher can know, and instances sharing this bus in tests see it when the write returns.
            await Promise.all([...invalidationListeners].map((listener) => listener(message)));
        },
        subscribeInvalidations(listener) {
            invalidationListeners.add(listener);
            return () => invalidationListeners.delete(listener);
        },
        // One process: nothing can come between a publish and its listeners.
        subscribeReconnects: () => () => { },
        async close() {
            listeners.clear();
            invalidationListeners.clear();
        },
    };
}
//# sourceMappingURL=memory.js.map