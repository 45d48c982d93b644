import { spawn, type ChildProcess } from 'node:child_process'
import { createInterface } from 'node:readline'
import path from 'node:path'
import { build, distDir } from '../../scripts/build.ts'
import { freePort } from './free-port.ts'

export { freePort }

/**
 * The compiled entry (dist/main.js), built when src/ changed since the last build: a child
 * started from JavaScript skips about 1.8 s of TypeScript loading per boot. scripts/run-tests.ts
 * builds once before the files; a file run alone builds here.
 */
export function compiledMain(): string {
  build({ ifChanged: true })
  return path.join(distDir, 'main.js')
}

/**
 * The service as `npm start` runs it (compiled), in a process of its own that a test may kill.
 * It binds a port of its own choosing (PORT=0) and says which in its ready line, so no free
 * port is released here and raced for by another process before the child binds it.
 */
export async function startServiceProcess(env: Record<string, string>): Promise<{ url: string; child: ChildProcess; exited: Promise<number | null>; stop(): Promise<void> }> {
  const child = spawn(process.execPath, [compiledMain()], {
    // info: the ready line carries the URL; every line is read here and only warnings and
    // errors (or everything at TEST_LOG_LEVEL) are passed on.
    env: { ...process.env, ...env, LOG_LEVEL: 'info', PORT: env.PORT ?? '0', HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  const show = process.env.TEST_LOG_LEVEL ? 0 : 40
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the service did not print its ready line in 120 s')), 120_000)
    const lines = createInterface({ input: child.stdout! })
    lines.on('line', (line) => {
      let entry: { level?: number; url?: string; readyMs?: number } | undefined
      try {
        entry = JSON.parse(line)
      } catch {
        process.stderr.write(`${line}\n`)
        return
      }
      if ((entry?.level ?? 0) >= show) process.stderr.write(`${line}\n`)
      if (entry?.readyMs !== undefined && entry.url) {
        clearTimeout(timer)
        resolve(entry.url)
      }
    })
    exited.then((code) => {
      clearTimeout(timer)
      reject(new Error(`the service exited with ${code} before it was ready`))
    })
  })
  return {
    url,
    child,
    exited,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM')
        await exited
      }
    },
  }
}
