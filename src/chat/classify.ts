import { CONCEPTS, KEEP, SLANG } from './lexicon.ts'
import type { Entities } from './extract.ts'
import { INTENTS, type Intent } from './intent-names.ts'

/**
 * A rule adds its weight when all its conditions hold. A condition is a concept of the
 * lexicon (`BURN`), an entity feature (`@pid`), or either negated (`!STAKE`).
 */
type Rule = [weight: number, ...conditions: string[]]

/** Concepts that make a message about something specific (so not a general "about"). */
const TOPICS = ['LOOKSMAXX', 'BURN', 'BUY', 'BRIDGE', 'PRICE', 'STATS', 'BALANCE', 'GALLERY', 'LEADER', 'REFERRAL', 'GASLESS', 'COMPARE', 'SCHEDULE', 'STAKE', 'UNSTAKE', 'CLAIM', 'LIQUIDITY', 'PROPOSAL', 'VOTE', 'VETO', 'EMISSION', 'REGISTRY', 'SAFETY', 'ACTIVITY', 'PORTRAIT', 'NFT', 'IDENTITY', 'POSITION', 'BOOST', 'INVENTORY', 'QUEUE', 'EXECUTE', 'PROPOSE', 'WALLET', 'MEGAETH', 'QUOTE']

/** Concepts that carry no request of their own. */
const TRIVIAL = new Set(['QUESTION', 'WHAT', 'SELF', 'SERVICE', 'TOKEN_WORD'])

const RULES: Record<Intent, Rule[]> = {
  looksmaxx: [[3, 'LOOKSMAXX'], [-3, 'STAKE'], [-2.5, 'HOW_MUCH', 'OWN'], [-2, 'STATS'], [-2, 'PRICE'], [-2, 'ELIGIBLE'], [2.5, 'PORTRAIT'], [1.5, 'PORTRAIT', 'NFT'], [1, 'MINT', 'PORTRAIT'], [1.5, 'MINT', 'NFT', '!RECENT'], [1.5, 'BURN', 'PORTRAIT'], [1, 'BURN', 'MINT'], [0.5, 'NFT', 'GET'],
    [-2, '@count'], [-2.5, '@chain'], [-2, 'SCHEDULE'], [-1.5, 'RECENT'], [-1.5, 'PEOPLE'], [-2, 'GALLERY'], [-2, 'LEADER'], [-1.5, 'COMPARE'], [-2, 'HOW_MUCH', '!SELF'], [-2, 'SHOW', '!LOOKSMAXX'], [1.5, 'PLAN']],
  cross_chain_looksmaxx: [[2, '@chain'], [2.5, '@chain', 'INTENT'], [1.5, '@chain', 'NFT'], [1, '@chain', 'GET'], [2, '@chain', 'LOOKSMAXX'], [2, '@chain', 'PORTRAIT'], [2, '@chain', 'BURN'], [1, '@chain', 'MINT'], [1, '@chain', 'BUY'],
    [-1, '@chain', 'BRIDGE', '!LOOKSMAXX', '!PORTRAIT', '!BURN', '!MINT']],
  swap: [[2.5, 'BUY'], [2.5, '@eth', '@MC', '!BURN', '!PRICE'], [2, 'QUOTE'], [1.5, 'QUOTE', '@eth'], [1, '@eth', '@MC'], [2.5, '@MC', 'GET', '!BURN', '!PORTRAIT'], [1, '@eth', 'BUY'], [2, 'HOW_MUCH', '@MC', '@eth'], [0.5, '@MC', 'BUY'], [2.5, 'TOKEN_WORD', '@eth', '!BURN', '!PRICE', '!STAKE', '!LIQUIDITY'], [2.5, 'HOW_MUCH', '@eth', '!@topic'], [2, 'GET', '@eth', '!@topic'], [1, '@MCamount', 'BUY'], [2.5, '@MCamount', 'GET', '!BURN', '!STAKE', '!PORTRAIT', '!LIQUIDITY'],
    [-3.5, '@MG'], [-2, '@venue'], [-2, 'LIQUIDITY'], [-2.5, '@chain'], [-1.5, 'BURN', '!@eth'], [-2, 'STAKE'], [-2, 'SCHEDULE'], [-2, 'REWARD']],
  burn: [[2.5, 'BURN'], [1, 'BURN', 'OWN', '!QUESTION', '!ELIGIBLE', '!HOW_MUCH'], [-2, 'COST_Q', '@ETHword'], [0.5, 'BURN', '@amount'], [-1, 'PORTRAIT'], [-3, '@count'], [-3, 'GASLESS'], [-2.5, 'SCHEDULE'], [-2, 'STATS'], [-2, 'LEADER'], [-1.5, 'PRICE'], [-2.5, '@chain'],
    [-2, 'ELIGIBLE'], [-1.5, 'HOW_MUCH', '!SELF'], [-1.5, 'WHO'], [-1.5, 'GALLERY'], [-1.5, 'RECENT'], [-2, 'CAN', '@addr'], [-1.5, 'READY', 'SELF'], [-2, 'SIGN'], [-2.5, 'MULTI']],
  bridge: [[3.5, 'BRIDGE'], [-2, 'BURN', '!@chain', '!MEGAETH'], [-2.5, 'INTENT'], [-1.5, '@chain', 'NFT'], [1, 'CHAIN_WORD', 'GET'], [2, 'GET', 'MEGAETH'], [1, '@chain', 'BRIDGE'], [-2.5, '@chain', 'LOOKSMAXX'], [-2, '@chain', 'PORTRAIT'], [-2, '@chain', 'BURN'], [-1.5, 'STAKE'], [-1, '@MG'], [-2, 'REGISTRY']],
  price: [[3.5, 'PRICE'], [3, 'WHAT', '@MC', '@ETHword', '!@eth', '!BUY', '!GET'], [2.5, '@MC', '@ETHword', '!@amount', '!@topic', '!GET'], [2.5, 'HOW_MUCH', '@ETHword', '!@eth', 'BURN'], [2.5, 'COST_Q', 'PORTRAIT', '!SELF'], [2.5, 'COST_Q', 'LOOKSMAXX', '!SELF'], [3, 'HOW_MUCH', '@MC', '!@eth', '!SELF'], [0.5, 'PRICE', '@MC'], [-2, 'BUY'], [-2.5, '@count'], [-1.5, 'LIQUIDITY'], [-2.5, '@MG'], [-1.5, 'STAKE'], [-2, 'GAS'], [-2, 'QUOTE']],
  stats: [[3, 'STATS'], [-2, 'LEADER'], [3, 'HOW_MUCH', 'BURN', '!SELF'], [2.5, 'HOW_MUCH', 'MINT', '!SELF'], [1, 'HOW_MUCH', 'PORTRAIT', '!SELF'], [1.5, 'HOW_MANY', 'PORTRAIT', '!SELF', '!@count'], [1, 'STATS', 'BURN'], [1, 'TOKEN_WORD', 'STATS'],
    [-2, 'SELF', 'HOW_MUCH'], [-2, 'STAKE'], [-2, 'REFERRAL'], [-1.5, 'PROPOSAL'], [-1.5, 'NFT', 'SELF']],
  wallet: [[3, 'BALANCE'], [-2, '@venue'], [1.5, 'WALLET', '@addr'], [2, 'OWN', '@addr', '!NFT'], [2.5, '@addr', '@bare'], [2.5, 'ELIGIBLE'], [1.5, 'CHECK'], [1.5, 'WALLET'], [1.5, 'WALLET', 'SELF'], [2, 'WALLET', 'CHECK'], [3, 'READY', 'SELF', 'BURN'], [1, '@addr', '!COMPARE'], [2, 'CAN', 'BURN', '@addr'], [3, 'HOW_MUCH', 'SELF', 'OWN', '!NFT', '!STAKE'],
    [-2.5, 'STAKE'], [-2, 'REFERRAL'], [-2.5, 'NFT'], [-2.5, 'GASLESS'], [-2.5, 'COMPARE'], [-1.5, 'IDENTITY'], [-2, '@two'], [-1.5, 'POSITION'], [-2, 'LIQUIDITY'], [-2, 'MEGAETH'], [-2, 'REGISTRY'], [-3, '@chain'], [-2.5, 'NO_ETH'], [-2.5, 'BURN', '!@addr', '!CAN', '!ELIGIBLE', '!READY', '!BALANCE', '!CHECK']],
  gallery: [[3.5, 'GALLERY'], [-2, 'STAKE'], [1.5, 'PEOPLE', 'SHOW'], [3, 'RECENT', 'LOOKSMAXX'], [3, 'PORTRAIT', 'RECENT'], [2.5, 'PORTRAIT', 'SHOW'], [2.5, 'RECENT', 'BURN', '!SELF'], [2, 'PEOPLE', '!LEADER', '!REFERRAL'], [1, 'PEOPLE', 'MINT'], [2.5, 'RECENT', 'MINT'], [1.5, 'NFT', 'RECENT'], [1, '@count', 'RECENT'],
    [-2, 'ACTIVITY'], [-2, 'LEADER'], [-1.5, 'SELF', '!SHOW'], [-2, '@chain']],
  leaderboard: [[3.5, 'LEADER'], [1.5, 'BEST'], [2, 'BEST', 'BURNER'], [1.5, 'BURNER'], [1.5, 'WHO', 'BURN'], [1, 'LEADER', 'BURN'], [-2, '@addrOrName'], [-2, 'REFERRAL'], [-2, 'STAKE']],
  referral: [[3.5, 'REFERRAL'], [2, 'EARN', 'AGENT'], [-2, '@venue'], [-2, 'EARN', 'STAKE'], [1.5, 'EARN', '!STAKE', '!CLAIM'], [1, 'CODE', 'REFERRAL'], [1, 'EARN', 'REFERRAL'], [-3, 'REGISTER'], [-2, 'STAKE'], [-1.5, 'AGENT', '!EARN', '!CODE']],
  register_agent: [[3, 'REGISTER'], [2.5, 'REGISTER', 'AGENT'], [1.5, 'REGISTER', 'REFERRAL'], [1, 'AGENT', '!REGISTER', '!SERVICE'], [2.5, 'AGENT', 'SELF'], [-0.5, 'REGISTER', '!AGENT', '!REFERRAL']],
  gasless: [[4, 'GASLESS'], [3, 'NO_ETH', 'BURN'], [1.5, 'GAS', '!PRICE', '!STATS'], [1.5, 'SIGN'], [1.5, 'GAS', 'BURN'], [2.5, 'SIGN', 'BURN'], [1.5, 'GAS', 'SELF']],
  compare: [[4, 'COMPARE'], [3.5, '@two'], [1.5, '@one', 'SELF', 'COMPARE'], [-1, '!@addrOrName', '!SELF']],
  multi_burn: [[2.5, '@count'], [2, '@count', 'BURN'], [2, '@count', 'LOOKSMAXX'], [2, '@count', 'PORTRAIT'], [3, 'MULTI', 'BURN'], [3, 'MULTI', 'PORTRAIT'], [3, 'MULTI', 'LOOKSMAXX'],
    [-3, 'SCHEDULE'], [-3, '@pid'], [-2, 'GALLERY'], [-2, 'LEADER'], [-3, 'RECENT']],
  schedule: [[4, 'SCHEDULE'], [1, 'SCHEDULE', 'BURN'], [1, 'SCHEDULE', 'LOOKSMAXX'], [-3.5, 'EMISSION'], [-2, 'PROPOSAL'], [-2, 'STAKE', '!BURN']],
  about: [[2.5, 'ABOUT'], [2.5, 'WHAT', 'SERVICE', '!@topic', '!ABOUT'], [-2, 'GET'], [-1, '@amount'], [2.5, 'GREETING', '!@topic'], [1, 'ABOUT', 'SERVICE'], [-1.5, '@topic'], [-2, '@addrOrName']],
  identity: [[3.5, 'IDENTITY'], [-2, 'WALLET', '!IDENTITY', '@addr'], [-1.5, 'OWN', '!WHO'], [1.5, 'WHO', 'OWN', '@name'], [2.5, '@name', '@bare'], [-1.5, '@addr', '@bare', '!@name'], [-2.5, 'BOOST'], [1.5, 'WHO_IS'], [2, 'WHO_IS', '@addrOrName'], [1.5, '@addrOrName'], [1, '@name'], [1.5, 'ABOUT', '@addrOrName'],
    [-3, 'COMPARE'], [-2.5, '@two'], [-2.5, 'NFT'], [-2, 'BALANCE'], [-2, 'ELIGIBLE'], [-2, 'REFERRAL'], [-2, 'STAKE'], [-2, 'CAN', 'BURN'], [-2, 'LOOKSMAXX'], [-2, 'POSITION'], [-2, 'LEADER']],
  stake: [[3.5, 'STAKE'], [-2.5, 'HOW_MUCH', 'OWN'], [-2, 'DEFI', '!@amount'], [-3, 'STOP'], [3, 'EARN', 'REWARD', '!CLAIM', '!REFERRAL'], [-2.5, 'BALANCE'], [-3, 'RECENT'], [2, '@venue'], [1.5, 'ADD', '@venue'], [-3, 'BACK'], [-2, 'DETAIL'], [2.5, 'DEPOSIT', '@venue'], [1.5, 'DEPOSIT', 'STAKE'], [0.5, 'STAKE', '@amount'],
    [-3.5, 'UNSTAKE'], [-3, 'CLAIM'], [-3, 'POSITION'], [-2.5, 'HOW_MUCH', 'SELF'], [-3, 'SAFETY'], [-2.5, 'NFT'], [-3, 'BOOST'], [-2.5, 'PENDING'], [-2, 'EMISSION'], [-1.5, 'REWARD', '!@amount', '!EARN'], [-2.5, 'SHOW'], [-2.5, 'STATS'], [-3, 'OUT'], [-2, 'REGISTRY']],
  unstake: [[4, 'UNSTAKE'], [3.5, 'STOP', 'STAKE'], [3, 'BACK', 'STAKE'], [1, 'UNSTAKE', '@venue'], [1, 'UNSTAKE', 'STAKE'], [3, 'OUT', '@venue'], [3.5, 'OUT', 'STAKE'], [-2.5, 'REWARD'], [-2, 'LIQUIDITY'], [-2.5, 'CLAIM']],
  claim_rewards: [[4, 'CLAIM'], [-2, 'EARN', '!CLAIM'], [1.5, 'REWARD', '!POSITION', '!REFERRAL', '!EMISSION', '!PENDING', '!WHEN'], [2.5, 'UNSTAKE', 'REWARD'], [2, 'GET', 'REWARD'], [1, 'CLAIM', '@venue'], [0.5, 'CLAIM', 'REWARD'], [-2, 'REFERRAL'], [-2, 'PENDING', '!CLAIM'], [-1.5, 'HOW_MUCH', '!CLAIM']],
  staking_position: [[4, 'POSITION'], [1.5, '@venue', 'REWARD', '!CLAIM'], [3, 'DEFI', 'STAKE', '!@amount'], [3, 'HOW_MUCH', '@venue'], [3, 'STAKE', 'BALANCE'], [2.5, 'STAKE', 'REWARD', '!CLAIM', '!GET'], [2.5, 'STAKE', 'DETAIL'], [3, 'EARN', '@venue'], [2.5, 'EARN', 'STAKE'], [2.5, 'STAKE', 'HOW_MUCH'], [3, 'PENDING'], [1, 'STAKE', 'CHECK'], [3, 'STAKE', 'SHOW', 'SELF'], [3, 'STAKE', 'STATS'], [1, 'REWARD', 'HOW_MUCH'], [-2, 'CLAIM', '!PENDING'], [-2, 'BOOST'], [-2, 'SAFETY'], [-2, 'EMISSION']],
  swap_mc_mg: [[3, '@MG', 'BUY'], [3.5, 'LIQUIDITY', 'QUOTE'], [2.5, '@MG', '@MC'], [1.5, '@MG'], [2, '@MG', 'GET', '!REWARD'], [3.5, 'LIQUIDITY', 'BUY', '!ADD'], [1, 'HOW_MUCH', '@MG', '@MC'],
    [-3.5, 'LIQUIDITY', 'ADD'], [-3, 'ADD', '!BUY'], [-2.5, 'STAKE'], [-3, 'EMISSION'], [-3.5, 'LIQUIDITY', '!BUY', '!QUOTE', '!PRICE'], [3, 'PRICE', '@MG', '@MC'], [-2, 'UNSTAKE'], [-2, 'CLAIM'], [-2, 'REWARD']],
  add_liquidity: [[4, 'LIQUIDITY'], [-3, 'PRICE', '!ADD'], [-3, 'QUOTE'], [1.5, 'ADD', 'LIQUIDITY'], [3, '@MC', '@MG', 'ADD'], [-2.5, 'BUY', '!ADD'], [-2, 'UNSTAKE']],
  list_proposals: [[3, 'PROPOSAL'], [-2.5, 'MINT', 'PROPOSAL_ONE', '!LIST'], [-2.5, 'START', 'PROPOSAL_ONE'], [-2.5, 'NEWWORD', 'PROPOSAL_ONE', '!LIST'], [-3, 'IDEA'], [1.5, 'PROPOSAL', 'LIST'], [1, 'PROPOSAL', 'SHOW'], [1.5, 'VOTE', '!@pid', '!@support'], [2, 'VOTE', 'LIST', '!@pid'], [2, 'VOTE', 'WHAT', '!@pid'], [0.5, 'PROPOSAL', 'WHAT'],
    [-3.5, '@pid'], [-3, 'PROPOSE'], [-3, 'SUBMIT'], [-3, 'VETO'], [-2, 'VOTE', '@support'], [-2.5, 'QUEUE'], [-2.5, 'EXECUTE', '@pid']],
  proposal_detail: [[3, '@pid'], [-2.5, 'RUN'], [-2.5, 'GET', 'QUEUED'], [-3, 'LEADER'], [1.5, 'WHAT', '@pid'], [-2, 'PASSED'], [-2.5, '@support'], [1.5, '@pid', 'DETAIL'], [1, '@pid', 'PROPOSAL'], [1, '@pid', 'QUESTION'], [-1.5, 'PROPOSE']],
  vote: [[3.5, 'VOTE'], [-2.5, 'WHAT', '@pid', '!@support'], [2.5, '@support', '@pid', '!VETO'], [-1.5, 'WHAT', '!@pid'], [1, '@support', '@pid'], [1, '@support', 'VOTE'], [1, '@pid', 'VOTE'], [-1, '!@pid'], [-3.5, 'VETO'], [-1, 'DETAIL', '!@support']],
  queue_proposal: [[4, 'QUEUE'], [3.5, 'QUEUED', '@pid', 'GET', '!EXECUTE'], [-2.5, 'RUN'], [4.5, 'PASSED', '@pid', '!EXECUTE', '!VOTE'], [-1.5, 'EXECUTE'], [1.5, 'QUEUE', '@pid'], [1, 'PASSED', '@pid'], [-1.5, 'QUEUED', 'EXECUTE']],
  execute_proposal: [[4, 'EXECUTE'], [1.5, 'EXECUTE', 'QUEUE'], [1.5, 'EXECUTE', '@pid'], [3, 'RUN', '@pid'], [1.5, 'RUN', 'PROPOSAL'], [1.5, 'QUEUED', 'EXECUTE'], [1, 'QUEUED', '@pid']],
  propose: [[4, 'PROPOSE'], [3, 'START', 'PROPOSAL_ONE', '!@pid'], [3, 'NEWWORD', 'PROPOSAL_ONE', '!@pid', '!LIST'], [3, 'IDEA', 'PROPOSAL'], [1.5, 'PROPOSE', 'PROPOSAL'], [3, 'SUBMIT', 'PROPOSAL', '!@pid'], [3, 'MINT', 'PROPOSAL_ONE', '!@pid', '!LIST'], [-2.5, '@pid']],
  veto: [[4.5, 'VETO'], [1, '@pid', 'VETO'], [-1.5, 'VETO', 'GAS']],
  emission_schedule: [[4, 'EMISSION'], [1.5, 'REWARD', 'WHEN'], [1, '@MG', 'WHEN'], [1, 'EMISSION', 'SCHEDULE']],
  protocol_registry: [[3.5, 'REGISTRY'], [2.5, 'PROTOCOL_WORD', '!@topic'], [1, 'REGISTRY', 'WALLET'], [1, 'PROTOCOL_WORD', 'LIST'], [1, 'PROTOCOL_WORD', 'WHERE'], [1, 'REGISTRY', 'WHERE'], [-2, 'STATS']],
  nft_inventory: [[3.5, 'INVENTORY'], [2.5, 'NFT'], [-2, 'PORTRAIT'], [3.5, 'BOOST'], [1.5, 'NFT', 'OWN'], [3, 'NFT', 'SELF'], [3, 'NFT', '@addr'], [1, 'NFT', 'HOW_MUCH'], [1, 'NFT', 'CHECK'],
    [-2, 'RECENT'], [-2.5, 'MINT'], [-2, 'REGISTRY'], [-2.5, 'LOOKSMAXX'], [-2, 'GALLERY'], [-2.5, '@chain'], [-1.5, 'BURN']],
  safety: [[4, 'SAFETY']],
  activity: [[4, 'ACTIVITY'], [2.5, 'RECENT', 'STAKE'], [1, 'RECENT', 'BURN', 'STAKE'], [1, 'RECENT', 'ACTIVITY'], [-1.5, 'PORTRAIT'], [-2, 'PROPOSAL', '!ACTIVITY'], [-3, '@pid']],
}

export type Classification = {
  /** The best intent, or "unclear" when the best is weak or nearly tied. */
  intent: Intent | 'unclear'
  /** 0..1: how much the best intent stands out (absolute score and margin over the second). */
  confidence: number
  /** Every intent with a positive score, best first. */
  ranked: Array<{ intent: Intent; score: number }>
  /** The best three (the suggestions when unclear). */
  top: Intent[]
}

/** Below this score nothing was really recognised. */
export const MIN_SCORE = 2.5
/** Closer than this to the second, the best is a guess. */
export const MIN_MARGIN = 0.5

const vocabulary = new Map<string, string>()
const phrases: Array<[string, string]> = []
for (const [concept, words] of Object.entries(CONCEPTS)) {
  for (const entry of words) {
    if (entry.includes(' ')) phrases.push([entry, concept])
    for (const word of entry.split(' ')) vocabulary.set(word, word)
  }
}
const vocabByLength = new Map<number, string[]>()
for (const word of vocabulary.keys()) {
  const list = vocabByLength.get(word.length) ?? []
  list.push(word)
  vocabByLength.set(word.length, list)
}
const conceptsOfWord = new Map<string, string[]>()
for (const [concept, words] of Object.entries(CONCEPTS)) {
  for (const entry of words) if (!entry.includes(' ')) conceptsOfWord.set(entry, [...(conceptsOfWord.get(entry) ?? []), concept])
}

/** Damerau-Levenshtein (optimal string alignment) distance, stopping early above `max`. */
export function editDistance(a: string, b: string, max = 2): number {
  if (Math.abs(a.length - b.length) > max) return max + 1
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)])
  for (let j = 1; j <= b.length; j++) d[0]![j] = j
  for (let i = 1; i <= a.length; i++) {
    let rowMin = Infinity
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1)
      d[i]![j] = v
      rowMin = Math.min(rowMin, v)
    }
    if (rowMin > max) return max + 1
  }
  return d[a.length]![b.length]!
}

const SUFFIXES = ['ings', 'ing', 'ers', 'er', 'ed', 'es', 's', 'd', 'y', 'z']

const canonCache = new Map<string, string[]>()

/** The vocabulary word a typed word stands for: exact, an inflection, or one typo away. */
export function canonicalWord(word: string): string {
  return canonicalForms(word)[0]!
}

/**
 * Every reading of a typed word: the best first, then those a typo leaves equally near
 * ("registr": register and registry), so the rest of the message decides between them.
 */
export function canonicalForms(word: string): string[] {
  const cached = canonCache.get(word)
  if (cached !== undefined) return cached
  const result = canonicalUncached(word)
  if (canonCache.size < 50_000) canonCache.set(word, result)
  return result
}

function canonicalUncached(word: string): string[] {
  if (vocabulary.has(word) || KEEP.has(word)) return [word]
  // Collapsed letter runs: "looksmaxxxx", "pleeease", "stakeee".
  const squeezed = word.replace(/(.)\1{2,}/g, '$1$1')
  if (vocabulary.has(squeezed)) return [squeezed]
  for (const suffix of SUFFIXES) {
    if (word.length - suffix.length < 3 || !word.endsWith(suffix)) continue
    const stem = word.slice(0, -suffix.length)
    if (vocabulary.has(stem)) return [stem]
    if (vocabulary.has(`${stem}e`)) return [`${stem}e`]
    // "stopped" → "stop", "burnning" → "burn"
    if (stem.length > 3 && stem.at(-1) === stem.at(-2) && vocabulary.has(stem.slice(0, -1))) return [stem.slice(0, -1)]
  }
  if (word.length < 4 || /\d/.test(word)) return [word]
  // One typo for words of 5+ letters (two for 9+, or 8+ starting with the same two letters);
  // 4-letter words only when the first letter matches.
  const max = word.length >= 8 ? 2 : 1
  const scored: Array<[string, number]> = []
  for (let len = word.length - max; len <= word.length + max; len++) {
    for (const candidate of vocabByLength.get(len) ?? []) {
      if (candidate.length < 4) continue
      if ((word.length === 4 || candidate.length === 4) && candidate[0] !== word[0]) continue
      if (word.length < 9 && editDistance(word, candidate, 1) > 1 && candidate.slice(0, 2) !== word.slice(0, 2)) continue
      // Ties go to the longer word that starts alike: a dropped letter is the commonest typo.
      const distance = editDistance(word, candidate, max) - (candidate.length > word.length ? 0.1 : 0) - (candidate[0] === word[0] ? 0.05 : 0) - (conceptsOfWord.has(candidate) ? 0.02 : 0) - (candidate.startsWith(word) ? 0.03 : 0)
      scored.push([candidate, distance])
    }
  }
  if (!scored.length) return [word]
  // Readings within a tie-break of the best are kept as alternates.
  const bestDistance = Math.min(...scored.map(([, d]) => d))
  if (bestDistance > max + 0.5) return [word]
  return scored.filter(([, d]) => d <= bestDistance + 0.04).sort((a, b) => a[1] - b[1]).map(([c]) => c)
}

/** Lower-cases, drops addresses, names and numbers, expands slang and corrects typos. */
export function normalise(message: string): string[] {
  const text = message
    .toLowerCase()
    .replace(/[’‘`]/g, "'")
    .replace(/0x[0-9a-f]{6,}/g, ' ')
    .replace(/\b[a-z0-9_-]+\.mega\b/g, ' ')
    .replace(/'/g, '')
    .replace(/(?<![a-z])[$#]?\d[\d.,]*\s*(?:k|m|mil|million|thousand)?\b/g, ' ')
    .replace(/[^a-z0-9& ]+/g, ' ')
  const words: string[] = []
  const alternates: string[] = []
  for (const raw of text.split(/\s+/)) {
    if (!raw) continue
    const expanded = SLANG[raw] ?? raw
    for (const word of expanded.split(' ')) {
      if (!word) continue
      const [first, ...others] = canonicalForms(word)
      words.push(first!)
      alternates.push(...others)
    }
  }
  // Other readings of ambiguous typos come last, so they evoke concepts but join no phrase.
  return alternates.length ? [...words, '|', ...alternates] : words
}

/** The concepts a message evokes. */
export function conceptsOf(words: string[]): Set<string> {
  const found = new Set<string>()
  for (const word of words) for (const concept of conceptsOfWord.get(word) ?? []) found.add(concept)
  const joined = ` ${words.join(' ')} `
  for (const [phrase, concept] of phrases) if (joined.includes(` ${phrase} `)) found.add(concept)
  return found
}

function entityFeatures(entities: Entities, concepts: Set<string>): Set<string> {
  const features = new Set<string>()
  const who = entities.addresses.length + entities.names.length
  if (entities.addresses.length) features.add('@addr')
  if (entities.names.length) features.add('@name')
  if (who) features.add('@addrOrName')
  if (who === 1) features.add('@one')
  if (who >= 2) features.add('@two')
  if (entities.count) features.add('@count')
  if (entities.proposalId !== undefined) features.add('@pid')
  if (entities.venue) features.add('@venue')
  if (entities.chain) features.add('@chain')
  if (entities.support) features.add('@support')
  if (entities.amounts.length) features.add('@amount')
  if (entities.amounts.some((a) => a.token === 'ETH')) features.add('@eth')
  if (entities.amounts.some((a) => a.token === 'MC')) features.add('@MCamount')
  if (entities.tokens.includes('MC')) features.add('@MC')
  if (entities.tokens.includes('MG')) features.add('@MG')
  if (entities.tokens.includes('ETH')) features.add('@ETHword')
  if (TOPICS.some((t) => concepts.has(t))) features.add('@topic')
  return features
}

/** Scores every intent from the message's concepts and entities; see RULES. */
export function classify(message: string, entities: Entities): Classification {
  const words = normalise(message)
  const concepts = conceptsOf(words)
  const features = entityFeatures(entities, concepts)
  // Nothing but entities (a bare address or name): the entity decides.
  if ([...concepts].every((c) => TRIVIAL.has(c))) features.add('@bare')
  const holds = (condition: string) => {
    const negated = condition.startsWith('!')
    const name = negated ? condition.slice(1) : condition
    const present = name.startsWith('@') ? features.has(name) : concepts.has(name)
    return negated ? !present : present
  }
  const ranked = INTENTS.map((intent) => ({
    intent,
    score: RULES[intent].reduce((sum, [weight, ...conditions]) => (conditions.every(holds) ? sum + weight : sum), 0),
  }))
    .filter((r) => r.score > 0)
    .sort((a, b) => b.score - a.score)
  const best = ranked[0]
  const second = ranked[1]?.score ?? 0
  const top = ranked.slice(0, 3).map((r) => r.intent)
  if (!best) return { intent: 'unclear', confidence: 0, ranked, top }
  const margin = best.score - second
  const confidence = Math.round(Math.min(1, best.score / 5) * Math.min(1, margin / 2) * 100) / 100
  const clear = best.score >= MIN_SCORE && margin >= MIN_MARGIN
  return { intent: clear ? best.intent : 'unclear', confidence, ranked, top }
}
