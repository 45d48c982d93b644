/**
 * What the early-access page signs and sends: the wallet's EIP-712 registration (docs/agents/economy.md) filled from the form, and the same call written out for people without a wallet in
 * the browser. Pure, so it is tested against the service's own signature check.
 */

/** The codes the service hands out: 6 to 16 characters of [a-z0-9]. */
export const REFERRAL_CODE = /^[a-z0-9]{6,16}$/

export type ReferralFromQuery = { code: string | null; invalid: string | null }

/** The referrer's code from `?ref=`; anything that is not a code is reported, never used. */
export function referralFromQuery(search: string): ReferralFromQuery {
  const raw = new URLSearchParams(search).get('ref')
  if (raw === null || raw === '') return { code: null, invalid: null }
  const code = raw.trim().toLowerCase()
  return REFERRAL_CODE.test(code) ? { code, invalid: null } : { code: null, invalid: raw.slice(0, 64) }
}

export type TypedDataTemplate = {
  domain: { name: string; version: string; chainId: number }
  types: Record<string, Array<{ name: string; type: string }>>
  primaryType: string
  message: Record<string, string>
}

export type SignUpFields = { wallet: string; twitter?: string; tweetUrl?: string; referralCode?: string }

/** The POST body without its signature: optional fields left empty are left out. */
export function registrationBody(fields: SignUpFields, issuedAt: number): Record<string, string | number> {
  const body: Record<string, string | number> = { wallet: fields.wallet }
  for (const name of ['twitter', 'tweetUrl', 'referralCode'] as const) {
    const value = fields[name]?.trim()
    if (value) body[name] = value
  }
  body.issuedAt = issuedAt
  return body
}

/**
 * The typed data to sign, from the template of GET /api/early/register: every field of the
 * primary type as sent in the body, an omitted one as "".
 */
export function registrationTypedData(template: TypedDataTemplate, body: Record<string, string | number>) {
  const fields = template.types[template.primaryType] ?? []
  const message: Record<string, string | bigint> = {}
  for (const field of fields) {
    const value = body[field.name]
    message[field.name] = field.type.startsWith('uint') ? BigInt(value ?? 0) : String(value ?? '')
  }
  return { domain: template.domain, types: { [template.primaryType]: fields }, primaryType: template.primaryType, message }
}

/**
 * The same typed data as JSON for eth_signTypedData_v4 and command-line signers, which want the
 * domain's own type listed.
 */
export function typedDataJson(typed: ReturnType<typeof registrationTypedData>): string {
  const domainType = [
    { name: 'name', type: 'string' },
    { name: 'version', type: 'string' },
    { name: 'chainId', type: 'uint256' },
  ]
  const message = Object.fromEntries(Object.entries(typed.message).map(([k, v]) => [k, typeof v === 'bigint' ? Number(v) : v]))
  const json = JSON.stringify({ types: { EIP712Domain: domainType, ...typed.types }, domain: typed.domain, primaryType: typed.primaryType, message }, null, 2)
  // One line per typed field keeps the document readable on a page.
  return json.replace(/\{\s*"name": ("[^"]*"),\s*"type": ("[^"]*")\s*\}/g, '{ "name": $1, "type": $2 }')
}

/** The POST as a shell command, with the signature left to fill in. */
export function curlCommand(endpoint: string, body: Record<string, string | number>): string {
  const json = JSON.stringify({ ...body, signature: '0x<signature>' })
  return `curl -X POST '${endpoint}' \\\n  -H 'content-type: application/json' \\\n  -d '${json.replace(/'/g, `'\\''`)}'`
}
