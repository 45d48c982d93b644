import { mkdtemp, rm } from 'node:fs/promises'
import { existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { chromium, type BrowserContext, type Page } from 'playwright-core'

/** Debian's Chromium, installed by scripts/install-chromium.sh (called from .ci/run). */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

/**
 * Without the background-networking flags Chromium opens connections of its own (updates,
 * sync, field trials) that this closed network refuses, and logs errors about them.
 */
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

export type TestBrowser = {
  context: BrowserContext
  /** A new tab that records console errors and uncaught exceptions in `errors`. */
  open(): Promise<{ page: Page; errors: string[] }>
  close(): Promise<void>
}

export function hasChromium(): boolean {
  return existsSync(CHROMIUM)
}

/** A headless Chromium with a fresh profile directory, removed on close. */
export async function startBrowser(): Promise<TestBrowser> {
  const profile = await mkdtemp(path.join(tmpdir(), 'b2c-chromium-'))
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: FLAGS })
  return {
    context,
    async open() {
      const page = await context.newPage()
      const errors: string[] = []
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(`console: ${message.text()} (${message.location().url})`)
      })
      page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`))
      return { page, errors }
    },
    async close() {
      await context.close()
      await rm(profile, { recursive: true, force: true })
    },
  }
}
