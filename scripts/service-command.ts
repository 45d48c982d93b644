import { fileURLToPath } from 'node:url'

/**
 * How a test or benchmark starts the service as a process of its own: the one place to switch
 * from the TypeScript loader (development) to the compiled `dist/main.js` once `npm run build`
 * exists. SERVICE_ENTRY=dist selects the compiled entry already.
 */
export function serviceCommand(): { command: string; args: string[] } {
  if (process.env.SERVICE_ENTRY === 'dist') {
    return { command: process.execPath, args: [fileURLToPath(new URL('../dist/main.js', import.meta.url))] }
  }
  return { command: process.execPath, args: ['--import', 'tsx', fileURLToPath(new URL('../src/main.ts', import.meta.url))] }
}
