/**
 * Logs a Redis connection's outage once when it begins and once when it ends. ioredis emits
 * 'error' on every reconnection attempt (a few a second), and a client with no 'error'
 * listener prints "[ioredis] Unhandled error event" to stderr each time.
 */
export function reportOutages(client, what, warn) {
    let down = false;
    client.on('error', (error) => {
        if (down)
            return;
        down = true;
        warn?.({ err: error }, `${what}: Redis connection lost; reconnecting`);
    });
    client.on('ready', () => {
        if (!down)
            return;
        down = false;
        warn?.({}, `${what}: Redis connection back`);
    });
}
//# sourceMappingURL=redis-outages.js.map