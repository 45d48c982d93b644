import { parentPort } from 'node:worker_threads'
import { createLocalStylizer } from './local-stylizer.ts'

/** Worker side: stylizes off the main thread, so request handling never waits for pixels. */
const stylizer = createLocalStylizer()
// The face model is loaded as soon as the thread starts; the pool sends it work once it is ready.
stylizer.warm().then(
  () => parentPort!.postMessage({ ready: true }),
  () => parentPort!.postMessage({ ready: true }),
)
parentPort!.on('message', async (message: { id: number; image: Uint8Array; mimeType: 'image/jpeg' | 'image/png' | 'image/webp'; seed: string }) => {
  try {
    const result = await stylizer.generate(message)
    parentPort!.postMessage({ id: message.id, result }, [result.image.buffer as ArrayBuffer])
  } catch (error) {
    parentPort!.postMessage({ id: message.id, error: (error as Error).message })
  }
})
