import { Worker } from 'node:worker_threads';
import { AppError } from "../../errors/app-error.js";
/**
 * The local stylizer in a worker thread: face detection and pixel work are CPU-bound, and on
 * the main thread they would delay every request and chain call around them.
 */
export function createThreadedStylizer() {
    let worker;
    let nextId = 0;
    const pending = new Map();
    function start() {
        if (worker)
            return worker;
        // Compiled (dist/, `npm run build`) the thread is plain JavaScript; from source it needs
        // the TypeScript loader, which worker threads do not inherit.
        const compiled = import.meta.url.endsWith('.js');
        const created = new Worker(new URL(compiled ? './stylizer-thread.js' : './stylizer-thread-entry.mjs', import.meta.url));
        created.on('message', (message) => {
            const waiter = pending.get(message.id);
            if (!waiter)
                return;
            pending.delete(message.id);
            if (message.error !== undefined) {
                waiter.reject(new AppError('UPSTREAM_FAILED', 'The local stylizer failed.', { cause: new Error(message.error), retryable: true }));
            }
            else {
                waiter.resolve({ ...message.result, image: new Uint8Array(message.result.image) });
            }
        });
        const failAll = (error) => {
            for (const waiter of pending.values())
                waiter.reject(new AppError('UPSTREAM_FAILED', 'The local stylizer stopped.', { cause: error, retryable: true }));
            pending.clear();
            worker = undefined;
        };
        created.on('error', failAll);
        created.on('exit', (code) => failAll(new Error(`stylizer thread exited with ${code}`)));
        // An idle stylizer must not keep the process alive.
        created.unref();
        worker = created;
        return created;
    }
    return {
        name: 'local-stylizer',
        generate(input) {
            const id = nextId++;
            const thread = start();
            thread.ref();
            return new Promise((resolve, reject) => {
                pending.set(id, { resolve, reject });
                const image = input.image.slice();
                thread.postMessage({ id, image, mimeType: input.mimeType, seed: input.seed }, [image.buffer]);
            }).finally(() => {
                if (pending.size === 0)
                    worker?.unref();
            });
        },
        async close() {
            const current = worker;
            worker = undefined;
            await current?.terminate();
        },
    };
}
//# sourceMappingURL=threaded-stylizer.js.map