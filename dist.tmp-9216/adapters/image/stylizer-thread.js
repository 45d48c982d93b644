import { parentPort } from 'node:worker_threads';
import { createLocalStylizer } from "./local-stylizer.js";
/** Worker side: stylizes off the main thread, so request handling never waits for pixels. */
const stylizer = createLocalStylizer();
parentPort.on('message', async (message) => {
    try {
        const result = await stylizer.generate(message);
        parentPort.postMessage({ id: message.id, result }, [result.image.buffer]);
    }
    catch (error) {
        parentPort.postMessage({ id: message.id, error: error.message });
    }
});
//# sourceMappingURL=stylizer-thread.js.map