import type { WebAssets, EntryName } from './build-assets.ts'

/**
 * The HTML of each page: a shell with the sections the browser code fills from the public API,
 * so everything it shows is what an agent would read too.
 */
export type PageName = EntryName

/**
 * Images come from the IPFS gateway, which is this service or an external one (Pinata, a Kubo
 * node): any https origin, and http for a local gateway. Everything else is this origin only.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "img-src 'self' data: https: http:",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'self'",
].join('; ')

const FOOTER = `<footer class="footer">
  <nav>
    <a href="/">Home</a>
    <a href="/early">Early access</a>
    <a href="/.well-known/openapi.json">OpenAPI</a>
    <a href="/llms.txt">llms.txt</a>
    <a href="/.well-known/mcp.json">MCP</a>
    <a href="/terms">Terms</a>
    <a href="/privacy">Privacy</a>
  </nav>
  <p class="muted">Every figure on this page comes from the public API (<code>/api/*</code>), live from the event stream <code>/api/events</code>.</p>
</footer>`

const HEADER = `<header class="top">
  <a class="brand" href="/">MegaChad <span>burn to create</span></a>
  <nav><a href="/#gallery">Gallery</a><a href="/#chadboard">Chadboard</a><a href="/#api">API</a><a href="/early">Early access</a></nav>
</header>`

const BODIES: Record<PageName, { title: string; description: string; body: string }> = {
  home: {
    title: 'MegaChad: burn to create',
    description: 'Live gallery of looksmaxxed portraits, the chadboard, price and burn cost, and the API reference.',
    body: `${HEADER}
<main>
  <section class="hero">
    <h1>Burn to create</h1>
    <p>Burn 225,000 MEGACHAD, pay 1 USDm with x402 and upload a portrait: an AI-enhanced portrait is pinned to IPFS and minted to you as an NFT on MegaETH (chain 4326). Agents do it through the <a href="#api">API</a> or MCP.</p>
    <p class="live" id="live" data-state="connecting">connecting to the event stream…</p>
  </section>
  <section class="cards" id="market" aria-label="Market">
    <div class="card"><h2>Price</h2><p class="big" id="price">…</p><p class="muted" id="price-detail"></p></div>
    <div class="card"><h2>Burn cost</h2><p class="big" id="burn-cost">…</p><p class="muted" id="burn-cost-detail"></p></div>
    <div class="card"><h2>Burned</h2><p class="big" id="tokens-burned">…</p><p class="muted" id="burn-totals"></p></div>
  </section>
  <section id="burns">
    <h2>Burns over time</h2>
    <div id="chart" class="chart"></div>
    <p class="muted" id="chart-note">Cumulative tokens burned and burns, from the event stream (each burn transaction counted once).</p>
    <h3>Latest burns</h3>
    <ol class="feed" id="feed"><li class="muted" id="feed-empty">No burn yet: they appear here as they happen.</li></ol>
  </section>
  <section id="gallery">
    <h2>Gallery</h2>
    <div class="grid" id="gallery-grid"></div>
    <p class="muted" id="gallery-empty" hidden>No portrait yet.</p>
  </section>
  <section id="chadboard">
    <h2>Chadboard</h2>
    <div class="scroll-x">
      <table class="board">
        <thead><tr><th>#</th><th>Burner</th><th>Portraits</th><th>Tokens burned</th><th>Reputation</th><th>Latest</th></tr></thead>
        <tbody id="chadboard-rows"></tbody>
      </table>
    </div>
    <p class="muted" id="chadboard-empty" hidden>Nobody on the board yet.</p>
  </section>
  <section id="api">
    <h2>API reference</h2>
    <p id="api-summary" class="muted">Loading the OpenAPI document…</p>
    <div id="api-reference"></div>
  </section>
</main>
${FOOTER}`,
  },
  early: {
    title: 'MegaChad early access and referrals',
    description: 'Sign up for the testnet beta with your wallet, and invite others with your referral link.',
    body: `${HEADER}
<main class="narrow">
  <section class="hero">
    <h1>Early access</h1>
    <p id="early-description">The testnet beta opens to wallets that hold MEGACHAD or a looksmaxxed portrait. Sign up with your wallet; you get a referral code and a link to share.</p>
    <div class="referral" id="referral" data-state="none"></div>
  </section>
  <section id="programme">
    <h2>How it works</h2>
    <ul id="eligibility">
      <li>Instant access: <span id="instant-access">3+ looksmaxxed NFTs</span>.</li>
      <li>Referral path: <span id="referral-path">any token balance or 1+ looksmaxxed NFT</span>.</li>
    </ul>
    <p>Only the wallet can register itself: it signs an EIP-712 message (<code>EarlyAccessRegistration</code>) over what it sends. Registering again returns the first registration and the same code. A link <code>/early?ref=CODE</code> brings the people you invite here with your code filled in.</p>
  </section>
  <section id="signup">
    <h2>Sign up</h2>
    <form id="signup-form" class="form">
      <label>Referral code <input name="referralCode" id="referral-code" autocomplete="off" pattern="[a-z0-9]{6,16}" placeholder="optional"></label>
      <label>Twitter <input name="twitter" id="twitter" autocomplete="off" placeholder="@handle (optional)"></label>
      <label>Tweet URL <input name="tweetUrl" id="tweet-url" type="url" autocomplete="off" placeholder="https://… (optional)"></label>
      <button type="submit" id="signup-button" disabled>Connect wallet and sign up</button>
    </form>
    <p id="wallet-status" class="muted">Looking for a wallet in this browser…</p>
    <div id="result" class="result" hidden></div>
  </section>
  <section id="without-wallet">
    <h2>From a script or the command line</h2>
    <p>No wallet in the browser? The same sign-up is two HTTP calls and a signature. Sign this typed data (<code>eth_signTypedData_v4</code>; e.g. <code>cast wallet sign --data --from-file early-access.json</code>) within 10 minutes of its <code>issuedAt</code>:</p>
    <pre id="typed-data"></pre>
    <p>then send it:</p>
    <pre id="curl"></pre>
    <p class="muted">The template comes from <code>GET /api/early/register</code> (<code>registration.signTypedData</code>).</p>
  </section>
</main>
${FOOTER}`,
  },
}

export function renderPage(name: PageName, assets: WebAssets): string {
  const page = BODIES[name]
  const entry = assets.entries[name]
  const styles = entry.styles.map((href) => `<link rel="stylesheet" href="${href}">`).join('\n')
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${page.title}</title>
<meta name="description" content="${page.description}">
<link rel="icon" href="data:,">
${styles}
<script type="module" src="${entry.script}"></script>
</head>
<body data-page="${name}">
<noscript><p class="noscript">This page needs JavaScript for its live parts; the same data is in the API: <a href="/api/gallery">/api/gallery</a>, <a href="/api/chadboard">/api/chadboard</a>, <a href="/api/price">/api/price</a>.</p></noscript>
${page.body}
</body>
</html>
`
}
