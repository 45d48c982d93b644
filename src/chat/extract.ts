import { getAddress, type Address } from 'viem'

export type Token = 'MC' | 'MG' | 'ETH' | 'WETH' | 'USDm'
export type Venue = 'mogger' | 'jester'
export type Support = 'for' | 'against' | 'abstain'
export type SourceChain = 'ethereum' | 'base' | 'arbitrum' | 'optimism' | 'polygon' | 'bnb' | 'avalanche'

/** An amount as written, in human units of its token (ETH amounts given in wei are converted). */
export type Amount = { value: string; token?: Token; raw: string }

/** Everything the engine reads out of a message besides its words. */
export type Entities = {
  /** EIP-55, in the order written, without duplicates. */
  addresses: Address[]
  /** `.mega` names, lower-cased, in order. */
  names: string[]
  /** Addresses and names together, in the order written (who is compared with whom). */
  parties: string[]
  amounts: Amount[]
  /** How many times ("3 times", "x3", "three portraits"), when more than one is asked. */
  count?: number
  proposalId?: number
  venue?: Venue
  /** Tokens named, in the order written (amount units included). */
  tokens: Token[]
  chain?: SourceChain
  support?: Support
  /** The message says "all"/"everything"/"max" about an amount. */
  all: boolean
  /**
   * Who the message names as the receiver of money, in an explicit phrase ("to 0x…", "for my
   * other wallet 0x…", "recipient: 0x…"): addresses (EIP-55) or `.mega` names, in order. An
   * address merely mentioned ("tx from 0x… said it works") is never here.
   */
  recipients: string[]
  /** Amounts written but not usable (not a finite decimal, above 10^15, or below one wei), as written. */
  invalidAmounts: string[]
}

/** Words that may stand between "to"/"for" and the recipient: "to my other wallet 0x…", "recipient: 0x…". */
const RECIPIENT_FILLER = '(?:my|our|the|this|that|other|another|second|2nd|new|own|cold|hot|main|alt|wallet|address|account|addy|addr|at|is|be|should|[:=])'
/**
 * An explicit recipient: "to", "for", "recipient", "receiver" or "beneficiary", at most four
 * filler words of the closed list above, then an address or a `.mega` name. A closed list, so
 * "for megachad, tx from 0x…" names no recipient.
 */
const RECIPIENT_PHRASE = new RegExp(
  `(?<![\\w])(?:to|for|recipient|receiver|beneficiary)\\s*[:=]?\\s*(?:${RECIPIENT_FILLER}\\s*){0,4}(0x[0-9a-f]{40}(?![0-9a-z])|[a-z0-9_-]{1,64}\\.mega\\b)`,
  'g',
)

const WORD_NUMBERS: Record<string, number> = {
  one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10,
  eleven: 11, twelve: 12, fifteen: 15, twenty: 20, twice: 2, thrice: 3, double: 2, triple: 3, a: 1, an: 1,
}

const TOKEN_WORDS: Array<[RegExp, Token]> = [
  [/^(?:\$?mc|\$?megachad|megachads|chad|chads|\$chad|mega-chad)$/, 'MC'],
  [/^(?:\$?mg|\$?megagooner|megagooners|gooner|gooners|mega-gooner)$/, 'MG'],
  [/^(?:weth|wrapped-eth)$/, 'WETH'],
  [/^(?:usdm|\$usdm|megausd|usd|dollars?|usdc|usdt|stables?|stablecoins?)$/, 'USDm'],
  [/^(?:eth|ether|\$eth|ethers|wei|gwei)$/, 'ETH'],
]

const CHAIN_WORDS: Array<[RegExp, SourceChain]> = [
  [/^(?:ethereum|mainnet|l1|ethmainnet|eth-mainnet)$/, 'ethereum'],
  [/^base$/, 'base'],
  [/^(?:arbitrum|arb|arbi|arbitrium|arbitrim)$/, 'arbitrum'],
  [/^(?:optimism|op|optimsm|optimisim)$/, 'optimism'],
  [/^(?:polygon|matic|poly|pol)$/, 'polygon'],
  [/^(?:bnb|bsc|binance)$/, 'bnb'],
  [/^(?:avalanche|avax|avalance)$/, 'avalanche'],
]

/** Zeros of each written scale ("225k", "1.5 million"). */
const SCALE: Record<string, number> = { k: 3, thousand: 3, m: 6, mil: 6, mill: 6, million: 6, mm: 6, b: 9, billion: 9 }

function tokenOf(word: string): Token | undefined {
  for (const [pattern, token] of TOKEN_WORDS) if (pattern.test(word)) return token
  return undefined
}

function chainOf(word: string): SourceChain | undefined {
  for (const [pattern, chain] of CHAIN_WORDS) if (pattern.test(word)) return chain
  return undefined
}

/** Digits of the integer part an amount may have: 10^15 of any token is above every supply. */
const MAX_INTEGER_DIGITS = 15
/** Decimals of the service's tokens and of ETH: a smaller amount does not exist on chain. */
const MAX_DECIMALS = 18

/** `decimal` × 10^places, exactly, as a plain decimal string ("1.5", 3 → "1500"; "5", -1 → "0.5"). */
function shiftDecimal(decimal: string, places: number): string {
  const [whole = '0', frac = ''] = decimal.split('.')
  let digits = whole + frac
  let point = whole.length + places
  if (point < 0) {
    digits = '0'.repeat(-point) + digits
    point = 0
  }
  digits = digits.padEnd(point, '0')
  const intPart = digits.slice(0, point).replace(/^0+(?=\d)/, '') || '0'
  const fracPart = digits.slice(point).replace(/0+$/, '')
  return fracPart ? `${intPart}.${fracPart}` : intPart
}

/**
 * An amount as written ("1.5", exponent "-3", scale 1e3, unit "gwei") in human units of its
 * token, computed on decimal strings (never through floats, so never Infinity or rounding), or
 * undefined when it is not a usable amount: more than 10^15, or finer than 18 decimals
 * (below one wei).
 */
function exactAmount(digits: string, exponent: number, scaleZeros: number, unitWord: string | undefined): string | undefined {
  // Units of 10^-18 and 10^-9 ETH; written in them, the value is converted to ETH.
  const unitZeros = unitWord === 'wei' ? -18 : unitWord === 'gwei' ? -9 : 0
  const places = exponent + scaleZeros + unitZeros
  // Checked before shifting, so "1e999999" never pads a million zeros.
  if (Math.abs(places) > MAX_INTEGER_DIGITS + MAX_DECIMALS + 40) return undefined
  const value = shiftDecimal(digits, places)
  const [whole = '0', frac = ''] = value.split('.')
  if (whole.length > MAX_INTEGER_DIGITS || frac.length > MAX_DECIMALS) return undefined
  return value
}

/**
 * Reads addresses, `.mega` names, amounts with units, counts, proposal ids, venues, tokens,
 * source chains and vote support out of a message. Pure; the message is not modified.
 */
export function extractEntities(message: string): Entities {
  let text = ` ${message.toLowerCase().replace(/[’‘]/g, "'")} `
  const entities: Entities = { addresses: [], names: [], parties: [], amounts: [], tokens: [], all: false, recipients: [], invalidAmounts: [] }

  // Addresses first, so their hex digits are never read as numbers; tx hashes are skipped.
  text = text.replace(/0x[0-9a-f]{64}/g, ' ')
  for (const match of text.matchAll(RECIPIENT_PHRASE)) {
    const who = match[1]!.startsWith('0x') ? getAddress(match[1]!) : match[1]!
    if (!entities.recipients.includes(who)) entities.recipients.push(who)
  }
  text = text.replace(/0x[0-9a-f]{40}(?![0-9a-z])/g, (hex) => {
    const address = getAddress(hex)
    if (!entities.addresses.includes(address)) entities.addresses.push(address)
    return ' '
  })
  text = text.replace(/(?<![\w.-])([a-z0-9_-]{1,64})\.mega\b/g, (_m, label: string) => {
    const name = `${label}.mega`
    if (!entities.names.includes(name)) entities.names.push(name)
    return ' '
  })

  const lower = message.toLowerCase()
  entities.parties = [...entities.addresses, ...entities.names].sort((a, b) => lower.indexOf(a.toLowerCase()) - lower.indexOf(b.toLowerCase()))

  // Proposal ids: "proposal 4", "proposal #4", "prop id 4", "pid 4", "#4".
  text = text.replace(/\b(?:proposals?|props?|proposl|proposel|pid|id)\s*(?:id|number|no\.?|num|nr\.?|n°)?\s*#?\s*(\d{1,6})\b/g, (_m, id: string) => {
    entities.proposalId ??= Number(id)
    return ' proposal '
  })
  text = text.replace(/(?:^|\s)#(\d{1,6})\b/g, (_m, id: string) => {
    entities.proposalId ??= Number(id)
    return ' proposal '
  })

  // Counts: "3 times", "x3", "3x", "three portraits", "5 burns".
  const countNoun = '(?:times|x|burns?|portraits?|pfps?|nfts?|looksmaxx(?:es|ings?)?|looksmax(?:es|ings?)?|mints?|rounds?|pics?|images?|chads)'
  const setCount = (n: number) => {
    if (n > 1 && n <= 1000) entities.count ??= n
  }
  text = text.replace(new RegExp(`\\b(\\d{1,4})\\s*${countNoun}(?![\\w])`, 'g'), (m, n: string) => {
    setCount(Number(n))
    return m.replace(n, ' ')
  })
  text = text.replace(/\bx\s?(\d{1,4})\b/g, (_m, n: string) => {
    setCount(Number(n))
    return ' '
  })
  text = text.replace(new RegExp(`\\b(${Object.keys(WORD_NUMBERS).join('|')})\\s+(?:more\\s+)?${countNoun}\\b`, 'g'), (m, word: string) => {
    setCount(WORD_NUMBERS[word]!)
    return m
  })
  // "burn 6", "looksmaxx 3": a small bare number right after the verb is a count, not an amount.
  text = text.replace(/\b(burn|looksmaxx|looksmax|mint|portraits?)\s+(\d{1,2})\b(?!\s*(?:k\b|m\b|tokens?|mc|megachad|chad|eth|mg|%|[.,]\d))/g, (_m, verb: string, n: string) => {
    setCount(Number(n))
    return ` ${verb} `
  })
  text = text.replace(/\b(twice|thrice)\b/g, (m, word: string) => {
    setCount(WORD_NUMBERS[word]!)
    return m
  })

  // "half an eth", "half a megachad": 0.5 of the unit.
  text = text.replace(/\bhalf\s+(?:an?\s+)?(\$?[a-z][a-z-]*)/g, (m, unit: string) => (tokenOf(unit) ? ` 0.5 ${unit}` : m))

  // Amounts: a number, an optional exponent ("1e18"), an optional scale (k, m, million), an optional unit.
  const amountPattern =
    /(?<![\w.])(\d+(?:[.,]\d+)*|\.\d+)(?:e([+-]?\d+)(?![\w.]))?\s*(?:(k|thousand|m|mil|mill|million|mm|b|billion)(?![a-z]))?\s*(\$?[a-z][a-z-]*)?/g
  for (const match of text.matchAll(amountPattern)) {
    let digits = match[1]!
    // "1,000" is a thousands separator; "0,5" a decimal comma.
    digits = /^\d{1,3}(,\d{3})+$/.test(digits) ? digits.replace(/,/g, '') : digits.replace(',', '.')
    if (!/^\d*\.?\d+$/.test(digits)) continue
    if (digits.startsWith('.')) digits = `0${digits}`
    const unitWord = match[4]
    // "225000 tokens" counts the service token (MEGACHAD), never ETH.
    const unit = unitWord ? (tokenOf(unitWord) ?? (/^(?:tokens?|coins?)$/.test(unitWord) ? 'MC' : undefined)) : undefined
    const value = exactAmount(digits, Number(match[2] ?? 0), match[3] ? SCALE[match[3]]! : 0, unitWord)
    if (value === undefined) entities.invalidAmounts.push(match[0].trim())
    else entities.amounts.push({ value, token: unit, raw: match[0].trim() })
  }

  const words = text.split(/[^a-z0-9$-]+/).filter((w) => w && !/^-+$/.test(w))
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!
    const token = tokenOf(word)
    // "eth" after "from" without an amount is a chain ("bridge from eth").
    if ((word === 'eth' || word === 'ether') && words[i - 1] === 'from' && !/^[\d.]+[km]?$/.test(words[i - 2] ?? '')) entities.chain ??= 'ethereum'
    if (token && !entities.tokens.includes(token)) entities.tokens.push(token)
    const chain = chainOf(word)
    // "op"/"base" are chains only near a chain cue, so "the op" or "base fee" stay words.
    if (chain && (word !== 'op' && word !== 'base' && word !== 'pol' ? true : /^(?:from|on|via|over|using|at|in|my)$/.test(words[i - 1] ?? '') || /^(?:chain|network|mainnet|megaeth)$/.test(words[i + 1] ?? ''))) {
      entities.chain ??= chain
    }
    if (/^moo?gg?e?r/.test(word) || word === 'mogger' || word === 'moggers') entities.venue ??= 'mogger'
    else if (/^jest(?:e|a)?r/.test(word) || word === 'jester' || word === 'jesters') entities.venue ??= 'jester'
    if (/^(?:all|everything|max|maximum|entire|whole)$/.test(word)) entities.all = true
  }

  // Vote support: explicit words near a vote, or standalone cues that only mean a side.
  const supportPatterns: Array<[RegExp, Support]> = [
    [/\babstain(?:ing|ed)?\b/, 'abstain'],
    [/\b(?:against|nay|reject|oppose|opposed|no\s+(?:on|to|vote)|vote\s+no|voting\s+no|thumbs\s+down|downvote)\b/, 'against'],
    [/\b(?:vote\s+for|voting\s+for|in\s+favou?r|support|supporting|yes|yay|yea|aye|approve|upvote|thumbs\s+up|for\s+it)\b/, 'for'],
  ]
  for (const [pattern, support] of supportPatterns) {
    if (pattern.test(text)) {
      entities.support = support
      break
    }
  }
  return entities
}

/** The first amount in ETH: one with an ETH unit, else (when `bare`) a unitless one. */
export function ethAmountOf(entities: Entities, bare: boolean): string | undefined {
  return (
    entities.amounts.find((a) => a.token === 'ETH')?.value ??
    (bare ? entities.amounts.find((a) => a.token === undefined)?.value : undefined)
  )
}

/** The first amount of a token (or unitless), in human units. */
export function tokenAmountOf(entities: Entities, token?: Token): string | undefined {
  const named = token ? entities.amounts.find((a) => a.token === token) : entities.amounts.find((a) => a.token !== undefined && a.token !== 'ETH')
  return (named ?? entities.amounts.find((a) => a.token === undefined))?.value
}
