import { test } from 'node:test'
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { useApp } from '../support/harness.ts'

/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance, a devDependency) against
 * this service's /api/mcp, for the scenarios that apply to any server. dns-rebinding-protection
 * sends Host and Origin of evil.example.com and expects a 4xx, then localhost and expects a 2xx.
 */
const SCENARIOS = ['server-initialize', 'ping', 'tools-list', 'dns-rebinding-protection']
const run = promisify(execFile)
const app = useApp()

/** Runs one scenario in a process of its own (the suite's CLI takes one at a time); its summary line. */
async function runScenario(scenario: string): Promise<string> {
  const outputDir = await mkdtemp(path.join(tmpdir(), 'mcp-conformance-'))
  try {
    const cli = path.resolve('node_modules/@modelcontextprotocol/conformance/dist/index.js')
    const { stdout } = await run(
      process.execPath,
      ['--import', path.resolve('scripts/conformance/register.mjs'), cli, 'server', '--url', `${app.url}/api/mcp`, '--scenario', scenario, '--output-dir', outputDir],
      { cwd: outputDir, timeout: 90_000 },
    ).catch((error: { stdout?: string; stderr?: string; message: string }) => {
      throw new Error(`conformance ${scenario} failed to run: ${error.message}\n${error.stdout ?? ''}\n${error.stderr ?? ''}`)
    })
    const plain = stdout.replace(/\x1b\[[0-9;]*m/g, '')
    const summary = /Passed:[^\n]*/.exec(plain)
    assert.ok(summary, `${scenario}: no summary in the suite's output:\n${plain}`)
    return `${scenario}: ${summary[0]}\n${plain}`
  } finally {
    await rm(outputDir, { recursive: true, force: true })
  }
}

test('the official MCP conformance scenarios for any server pass', async () => {
  // At once: each run is mostly the suite's own start-up, which need not wait for the others'.
  const results = await Promise.all(SCENARIOS.map(runScenario))
  for (const result of results) assert.match(result.split('\n')[0]!, /Passed: (\d+)\/\1, 0 failed/, result)
})
