/**
 * Shows each step as it happens: a spinner on a terminal (ora), plain lines otherwise, and
 * nothing but the final JSON on stdout with --json (progress then goes to stderr as lines).
 */
import ora from 'ora'

export type Progress = {
  step<T>(label: string, run: () => Promise<T>, done?: (value: T) => string): Promise<T>
  skip(label: string, why: string): void
  info(line: string): void
}

export function createProgress(opts: { json: boolean; stream?: NodeJS.WriteStream }): Progress {
  const stream = opts.stream ?? process.stderr
  const interactive = !opts.json && Boolean(stream.isTTY) && !process.env.CI
  return {
    async step(label, run, done) {
      const spinner = interactive ? ora({ text: label, stream }).start() : null
      const started = Date.now()
      try {
        const value = await run()
        const detail = done ? done(value) : ''
        const line = `${label}${detail ? `: ${detail}` : ''} (${((Date.now() - started) / 1000).toFixed(1)} s)`
        if (spinner) spinner.succeed(line)
        else stream.write(`✔ ${line}\n`)
        return value
      } catch (error) {
        if (spinner) spinner.fail(label)
        else stream.write(`✖ ${label}\n`)
        throw error
      }
    },
    skip(label, why) {
      if (interactive) ora({ text: label, stream }).info(`${label}: skipped, ${why}`)
      else stream.write(`- ${label}: skipped, ${why}\n`)
    },
    info(line) {
      stream.write(`${line}\n`)
    },
  }
}
