import { test, before, after } from 'node:test'
import { requires } from '../support/env.ts'
import assert from 'node:assert/strict'
import { encodeFunctionData, erc20Abi } from 'viem'
import { useApp, type TestDevnet } from '../support/harness.ts'
import { createAgent, portraitBase64, type Agent } from '../support/agent.ts'
import { hasChromium, startBrowser, CHROMIUM, type TestBrowser } from '../support/browser.ts'
import { testAccount } from '../support/accounts.ts'

/**
 * The web page in a real browser (Debian's Chromium through playwright-core) against the
 * service on the devnet: what a person sees at / and /early, live updates without a reload,
 * and no console error.
 */
const skip = requires('chromium', hasChromium(), `no Chromium at ${CHROMIUM}: run scripts/install-chromium.sh`)
const DEAD = '0x000000000000000000000000000000000000dEaD'
const E18 = 10n ** 18n

let devnet: TestDevnet
const app = useApp({ env: { INDEXER_POLL_MS: '200' } })
let browser: TestBrowser
let holder: Agent
let image: string
let firstTokenId: string

async function looksmaxx(who: Agent): Promise<string> {
  const { burnTxHash, devTxHash } = await who.burn()
  const { status, body } = await app.post(`/api/generate`, { burnTxHash, devTxHash, burnerAddress: who.address, image, ...(await who.signRedeem({ burnTxHash, devTxHash, image })) })
  assert.equal(status, 200, JSON.stringify(body))
  return body.tokenId
}

before(async () => {
  if (skip) return
  devnet = app.devnet
  image = await portraitBase64()
  holder = await createAgent(app.url, devnet.url, 4) // the demo holder: tokens, a .mega name
  firstTokenId = await looksmaxx(holder)
  browser = await startBrowser()
})
after(async () => {
  await browser?.close()
})

test('/ shows the price, the gallery, the chadboard, the chart and the API reference, and burns appear without a reload', { skip }, async () => {
  const { page, errors } = await browser.open()
  await page.goto(`${app.url}/`)
  assert.equal(await page.title(), 'MegaChad: burn to create')

  await page.locator('#price', { hasText: /ETH$/ }).waitFor()
  assert.match(await page.textContent('#burn-cost') ?? '', /^225,000 MEGACHAD$/)
  assert.match(await page.textContent('#burn-cost-detail') ?? '', /≈ [\d.]+ ETH at this price, plus a 1 USDm fee/)
  const figure = page.locator(`#gallery-grid figure[data-token-id="${firstTokenId}"]`)
  await figure.waitFor()
  // The portrait image loads from the IPFS gateway (lazily: once scrolled into view).
  // The gallery is re-rendered when events arrive: scroll again if the figure was replaced meanwhile.
  for (let attempt = 0; ; attempt++) {
    try {
      await figure.scrollIntoViewIfNeeded({ timeout: 5_000 })
      break
    } catch (error) {
      if (attempt >= 4 || !/not attached/.test(String(error))) throw error
    }
  }
  const image = `#gallery-grid figure[data-token-id="${firstTokenId}"] img`
  await page.waitForFunction(`(() => { const img = document.querySelector('${image}'); return img.complete && img.naturalWidth > 0 })()`)
  // Shown whole and square, as the portrait is (not cropped to a strip by its size attributes).
  // Measured in the page in one step: the gallery may re-render (events) between two calls.
  const [width, height] = (await page.evaluate(`(() => { const r = document.querySelector('${image}').getBoundingClientRect(); return [r.width, r.height] })()`)) as [number, number]
  assert.ok(width > 100 && Math.abs(width - height) <= 1, `portrait shown ${width}×${height}`)
  const row = page.locator(`#chadboard-rows tr[data-address="${holder.address}"]`)
  await row.waitFor()
  assert.match(await row.textContent() ?? '', /225,000/)
  assert.equal(await page.locator('#chart canvas').count(), 1, 'the chart draws on a canvas')

  const openapi = (await app.get(`/.well-known/openapi.json`)).body
  const operationIds = Object.values(openapi.paths as Record<string, Record<string, { operationId: string }>>).flatMap((item) => Object.values(item).map((op) => op.operationId))
  await page.waitForSelector('#api-reference details.op')
  const listed = await page.$$eval('#api-reference details.op', (ops) => ops.map((op) => op.getAttribute('data-operation-id')))
  assert.deepEqual([...listed].sort(), [...operationIds].sort(), 'every operation of the OpenAPI document is listed')
  const gallery = page.locator('details.op[data-operation-id="get_gallery"]')
  await gallery.locator('summary').click()
  assert.match(await gallery.textContent() ?? '', /limit.*integer \(1 to 50\)/s)
  assert.match(await gallery.locator('tr[data-status="400"]').textContent() ?? '', /INVALID_INPUT/)

  await page.waitForSelector('#live[data-state="live"]')
  await page.evaluate('window.notReloaded = true')

  // A plain transfer to the dead address: a burn the page hears of through the event stream.
  const hash = await holder.send({ to: holder.contracts.token!, data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [DEAD, 5_000n * E18] }) })
  const entry = page.locator(`#feed li[data-tx="${hash.toLowerCase()}"]`)
  await entry.waitFor()
  assert.match(await entry.textContent() ?? '', /transfer.*5,000 burned/)
  await page.locator('#tokens-burned', { hasText: /^230,000$/ }).waitFor()

  // A looksmaxx: the new portrait joins the gallery and the burner's row counts two.
  const tokenId = await looksmaxx(holder)
  await page.locator(`#gallery-grid figure[data-token-id="${tokenId}"]`).waitFor()
  await page.locator(`#chadboard-rows tr[data-address="${holder.address}"] td:nth-child(3)`, { hasText: /^2$/ }).waitFor()
  assert.equal(await page.locator('#gallery-grid figure').count(), 2)
  assert.equal(await page.evaluate('window.notReloaded'), true, 'the page was not reloaded')

  // On a phone's width the page does not scroll sideways (the chadboard scrolls in its box).
  await page.setViewportSize({ width: 390, height: 844 })
  // The chart follows its box's new width after a short debounce.
  for (let waited = 0; !(await page.evaluate(`document.querySelector('#chart .uplot').getBoundingClientRect().right <= window.innerWidth`)); waited += 100) {
    assert.ok(waited < 5_000, 'the chart fits the narrow screen')
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  const wide = await page.evaluate(`[...document.querySelectorAll('body *')].filter((e) => { if (e.getBoundingClientRect().right <= window.innerWidth + 1) return false; for (let a = e.parentElement; a; a = a.parentElement) if (['auto', 'scroll', 'hidden'].includes(getComputedStyle(a).overflowX)) return false; return true }).map((e) => e.tagName + '#' + e.id + '.' + e.className + ':' + Math.round(e.getBoundingClientRect().right)).slice(0, 12)`)
  assert.deepEqual(wide, [], 'nothing wider than a 390 px screen, but inside a box that scrolls')
  assert.equal(await page.evaluate('document.documentElement.scrollWidth'), 390)

  assert.deepEqual(errors, [])
  await page.close()
})

test('/early?ref=CODE shows the code and signs a wallet up through an injected EIP-1193 wallet', { skip }, async () => {
  const { page, errors } = await browser.open()
  const account = testAccount(4).account
  const asked: string[] = []
  // A wallet extension's provider, backed by a real key: it signs what the page asks it to.
  await page.exposeFunction('walletRequest', async (method: string, params: unknown[]) => {
    asked.push(method)
    switch (method) {
      case 'eth_requestAccounts':
      case 'eth_accounts':
        return [account.address]
      case 'eth_chainId':
        return '0x10e6'
      case 'eth_signTypedData_v4': {
        const { types, domain, primaryType, message } = JSON.parse(params[1] as string)
        delete types.EIP712Domain
        return account.signTypedData({ types, domain, primaryType, message })
      }
      default:
        throw new Error(`the test wallet does not do ${method}`)
    }
  })
  // As source text: tsx would otherwise wrap a function's names in a helper the page lacks.
  await page.addInitScript('window.ethereum = { request: ({ method, params }) => window.walletRequest(method, params ?? []) }')
  await page.goto(`${app.url}/early?ref=abc123demo`)
  assert.equal(await page.textContent('#ref-code'), 'abc123demo')
  assert.equal(await page.inputValue('#referral-code'), 'abc123demo')
  await page.waitForSelector('#signup-button:not([disabled])')
  assert.match(await page.textContent('#instant-access') ?? '', /3\+ looksmaxxed NFTs/)

  await page.fill('#twitter', '@chadtester')
  await page.click('#signup-button')
  const code = (await page.locator('#my-code').textContent())!
  assert.equal(code, `${account.address.slice(2, 8).toLowerCase()}chad`)
  assert.equal(await page.getAttribute('#my-link', 'href'), `${app.url}/early?ref=${code}`)
  assert.deepEqual(asked, ['eth_requestAccounts', 'eth_chainId', 'eth_signTypedData_v4'])
  const { rows } = await app.ctx.db.query<{ referred_by: string; twitter: string }>('SELECT referred_by, twitter FROM early_access WHERE wallet = $1', [account.address])
  assert.deepEqual(rows, [{ referred_by: 'abc123demo', twitter: '@chadtester' }], 'the referrer is recorded with the signed registration')

  assert.deepEqual(errors, [])
  await page.close()
})

test('/early without a wallet shows the exact API call, and a link with something else than a code does not use it', { skip }, async () => {
  const { page, errors } = await browser.open()
  await page.goto(`${app.url}/early?ref=${encodeURIComponent('<img src=x onerror=alert(1)>')}`)
  await page.waitForSelector('#wallet-status:has-text("No wallet")')
  assert.equal(await page.getAttribute('#referral', 'data-state'), 'invalid')
  assert.match(await page.textContent('#referral') ?? '', /<img src=x onerror=alert\(1\)>, which is not a referral code/)
  assert.equal(await page.locator('#referral img').count(), 0, 'the query is shown as text, never as markup')
  assert.ok(await page.isDisabled('#signup-button'))
  const curl = (await page.textContent('#curl'))!
  assert.match(curl, new RegExp(`^curl -X POST '${app.url}/api/early/register'`))
  assert.match(curl, /"wallet":"0xYourWallet","issuedAt":\d+,"signature":"0x<signature>"/)
  const typed = JSON.parse((await page.textContent('#typed-data'))!)
  assert.equal(typed.primaryType, 'EarlyAccessRegistration')
  assert.deepEqual(typed.domain, { name: 'MegaChad', version: '1', chainId: 4326 })
  await page.fill('#referral-code', 'friend42')
  assert.match((await page.textContent('#curl'))!, /"referralCode":"friend42"/, 'the command follows the form')
  assert.deepEqual(errors, [])
  await page.close()
})

test('pages and assets: HTML revalidated, hashed assets immutable with their type and gzip, unknown paths the JSON 404', { skip }, async () => {
  const home = await fetch(`${app.url}/`)
  assert.equal(home.status, 200)
  assert.equal(home.headers.get('content-type'), 'text/html; charset=utf-8')
  assert.equal(home.headers.get('cache-control'), 'no-cache')
  assert.match(home.headers.get('content-security-policy')!, /script-src 'self'/)
  const html = await home.text()
  assert.equal((await fetch(`${app.url}/`, { headers: { 'if-none-match': home.headers.get('etag')! } })).status, 304)
  assert.equal((await fetch(`${app.url}/early?ref=abc123demo`)).status, 200)

  const script = html.match(/<script type="module" src="(\/assets\/home-[A-Z0-9]+\.js)">/)![1]!
  const style = html.match(/<link rel="stylesheet" href="(\/assets\/home-[A-Z0-9]+\.css)">/)![1]!
  const js = await fetch(`${app.url}${script}`)
  assert.equal(js.status, 200)
  assert.equal(js.headers.get('content-type'), 'text/javascript; charset=utf-8')
  assert.equal(js.headers.get('cache-control'), 'public, max-age=31536000, immutable')
  assert.equal(js.headers.get('content-encoding'), 'gzip', 'fetch accepts gzip')
  assert.equal((await fetch(`${app.url}${style}`)).headers.get('content-type'), 'text/css; charset=utf-8')
  assert.ok(!html.includes('http://') && !html.includes('https://'), 'no asset from another origin (no CDN)')

  for (const path of ['/assets/home-NOPE.js', '/assets/../package.json', '/index.html']) {
    const { status, body } = await app.get(`${path}`)
    assert.equal(status, 404, path)
    assert.equal(body.error.code, 'NOT_FOUND', path)
  }
})
