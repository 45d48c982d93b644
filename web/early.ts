import { createWalletClient, custom, defineChain, type EIP1193Provider } from 'viem'
import './styles.css'
import { byId, getJson, h } from './dom.ts'
import { curlCommand, referralFromQuery, registrationBody, registrationTypedData, typedDataJson, type TypedDataTemplate } from './lib/early-signup.ts'

type EarlyInfo = {
  description: string
  eligibility: { instantAccess: string; referralPath: string }
  registration: { endpoint: string; signTypedData: TypedDataTemplate }
  contracts: { chain: string; rpc: string }
}
type Registered = { wallet: string; referralCode: string; referralLink: string; message: string; eligibility: { path: string; nftCount: number; hasTokens: boolean } }
type ErrorBody = { error?: { code?: string; message?: string } }

declare global {
  interface Window {
    ethereum?: EIP1193Provider
  }
}

const form = byId<HTMLFormElement>('signup-form')
const button = byId<HTMLButtonElement>('signup-button')
const status = byId('wallet-status')
const result = byId('result')
const field = (id: string) => byId<HTMLInputElement>(id)

function showReferral() {
  const referral = referralFromQuery(location.search)
  const box = byId('referral')
  if (referral.code) {
    box.dataset.state = 'code'
    box.replaceChildren('You were invited with the referral code ', h('strong', { id: 'ref-code' }, referral.code), '. It is filled in below.')
    field('referral-code').value = referral.code
  } else if (referral.invalid) {
    box.dataset.state = 'invalid'
    box.replaceChildren('The link carries ', h('code', {}, referral.invalid), ', which is not a referral code (6 to 16 lowercase letters and digits). You can still sign up without one.')
  } else {
    box.dataset.state = 'none'
    box.replaceChildren('No referral code in the link: sign up without one, or paste the code you were given below.')
  }
}

function fields(wallet: string) {
  return { wallet, twitter: field('twitter').value, tweetUrl: field('tweet-url').value, referralCode: field('referral-code').value }
}

/** The sign-up written out for a script, kept in step with the form. */
function showInstructions(info: EarlyInfo) {
  const body = registrationBody(fields('0xYourWallet'), Math.floor(Date.now() / 1000))
  const typed = registrationTypedData(info.registration.signTypedData, { ...body, wallet: '0xYourWallet' })
  byId('typed-data').textContent = typedDataJson(typed)
  byId('curl').textContent = curlCommand(info.registration.endpoint, body)
}

function showResult(state: 'ok' | 'error', ...children: Array<Node | string>) {
  result.hidden = false
  result.dataset.state = state
  result.replaceChildren(...children)
}

/** Switches to the chain, adding it first when the wallet does not know it (EIP-3085, code 4902). */
async function switchChain(wallet: ReturnType<typeof createWalletClient>, chainId: number, info: EarlyInfo) {
  try {
    await wallet.switchChain({ id: chainId })
  } catch (error) {
    const code = (error as { code?: number; cause?: { code?: number } }).code ?? (error as { cause?: { code?: number } }).cause?.code
    if (code !== 4902) throw error
    const name = info.contracts.chain.replace(/\s*\(\d+\)$/, '')
    await wallet.addChain({ chain: defineChain({ id: chainId, name, nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [info.contracts.rpc] } } }) })
  }
}

async function signUp(info: EarlyInfo, provider: EIP1193Provider) {
  button.disabled = true
  try {
    const wallet = createWalletClient({ transport: custom(provider) })
    status.textContent = 'Asking the wallet for an account…'
    const [address] = await wallet.requestAddresses()
    if (!address) throw new Error('The wallet shared no account.')
    const chainId = info.registration.signTypedData.domain.chainId
    // Wallets refuse typed data for a chain other than the active one.
    if ((await wallet.getChainId()) !== chainId) await switchChain(wallet, chainId, info)
    const body = registrationBody(fields(address), Math.floor(Date.now() / 1000))
    const typed = registrationTypedData(info.registration.signTypedData, body)
    status.textContent = `Sign the registration of ${address} in your wallet…`
    const signature = await wallet.signTypedData({ account: address, ...typed } as Parameters<typeof wallet.signTypedData>[0])
    status.textContent = 'Registering…'
    const response = await fetch('/api/early/register', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...body, signature }) })
    const answer = (await response.json()) as Registered & ErrorBody
    if (!response.ok) {
      showResult('error', h('strong', {}, answer.error?.code ?? String(response.status)), ': ', answer.error?.message ?? 'the registration failed.')
      status.textContent = `Wallet ${address}.`
      return
    }
    status.textContent = `Registered ${answer.wallet}.`
    showResult(
      'ok',
      h('p', {}, answer.message),
      h('p', {}, 'Your referral code: ', h('strong', { id: 'my-code' }, answer.referralCode), ` (${answer.eligibility.path} path)`),
      h('p', {}, 'Share this link: ', h('a', { id: 'my-link', href: answer.referralLink }, answer.referralLink)),
    )
  } catch (error) {
    const message = error instanceof Error ? ((error as { shortMessage?: string }).shortMessage ?? error.message) : String(error)
    showResult('error', 'The wallet did not sign: ', message)
    status.textContent = 'Try again when ready.'
  } finally {
    button.disabled = false
  }
}

async function main() {
  showReferral()
  let info: EarlyInfo
  try {
    info = await getJson<EarlyInfo>('/api/early/register')
  } catch (error) {
    showResult('error', `Could not load the programme: ${error instanceof Error ? error.message : String(error)}`)
    return
  }
  byId('early-description').textContent = `${info.description} Chain: ${info.contracts.chain}.`
  byId('instant-access').textContent = info.eligibility.instantAccess
  byId('referral-path').textContent = info.eligibility.referralPath
  showInstructions(info)
  form.addEventListener('input', () => showInstructions(info))

  const provider = window.ethereum
  if (!provider) {
    status.textContent = 'No wallet in this browser (window.ethereum). Use the commands below, or open this page in a browser with a wallet.'
    return
  }
  status.textContent = 'A wallet is available: you sign one message, no transaction and no gas.'
  button.disabled = false
  form.addEventListener('submit', (event) => {
    event.preventDefault()
    if (form.reportValidity()) void signUp(info, provider)
  })
}

void main()
