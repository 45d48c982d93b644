import { test, describe } from 'node:test'
import assert from 'node:assert/strict'
import { classify, canonicalWord, canonicalForms, editDistance } from './classify.ts'
import { extractEntities } from './extract.ts'
import { INTENTS, type Intent } from './intents.ts'
import { TRAINING } from './corpus/training.ts'
import { HELD_OUT } from './corpus/held-out.ts'
import { HELD_OUT_2 } from './corpus/held-out-2.ts'
import { HELD_OUT_3 } from './corpus/held-out-3.ts'

const intentOf = (message: string) => classify(message, extractEntities(message)).intent

function accuracy(set: Array<[Intent, string]>) {
  const misses = set.filter(([intent, message]) => intentOf(message) !== intent).map(([intent, message]) => `${intent} ← ${intentOf(message)}: ${message}`)
  return { correct: set.length - misses.length, total: set.length, misses }
}

describe('classifier corpus', () => {
  test('at least 10 training phrasings and 3 held-out phrasings per intent, for all 36 intents', () => {
    assert.equal(INTENTS.length, 36)
    for (const intent of INTENTS) {
      assert.ok(TRAINING.filter(([i]) => i === intent).length >= 10, `${intent}: 10 training phrasings`)
      assert.ok(HELD_OUT.filter(([i]) => i === intent).length >= 3, `${intent}: 3 held-out phrasings`)
      assert.ok(HELD_OUT_2.filter(([i]) => i === intent).length >= 3, `${intent}: 3 more held-out phrasings`)
      assert.ok(HELD_OUT_3.filter(([i]) => i === intent).length >= 2, `${intent}: 2 last held-out phrasings`)
    }
  })

  test('training phrasings: at least 97 % right', (t) => {
    const { correct, total, misses } = accuracy(TRAINING)
    t.diagnostic(`training accuracy ${correct}/${total} = ${((100 * correct) / total).toFixed(1)} %`)
    assert.ok(correct / total >= 0.97, misses.join('\n'))
  })

  // Honest figures are the first measurement of each set (docs/agents/chat-engine.md): 140/144, 100/108, 69/72. General
  // fixes made after a measurement lift these; the floor guards against regressions.
  for (const [name, set] of [['held-out 1', HELD_OUT], ['held-out 2', HELD_OUT_2], ['held-out 3', HELD_OUT_3]] as const) {
    test(`${name} phrasings (never tuned on as sentences): at least 90 % right`, (t) => {
      const { correct, total, misses } = accuracy(set)
      t.diagnostic(`${name} accuracy ${correct}/${total} = ${((100 * correct) / total).toFixed(1)} %`)
      for (const miss of misses) t.diagnostic(`miss: ${miss}`)
      assert.ok(correct / total >= 0.9, misses.join('\n'))
    })
  }
})

describe('classifier behaviour', () => {
  test('an unclear message is "unclear" with at most three suggestions, never a wrong answer', () => {
    for (const message of ['asdf qwer', 'hmm', 'the weather is nice', 'banana']) {
      const result = classify(message, extractEntities(message))
      assert.equal(result.intent, 'unclear', message)
      assert.ok(result.top.length <= 3)
    }
  })

  test('the pitfalls of the reference: "gasless burn" and "total burned" are not burn', () => {
    assert.equal(intentOf('gasless burn'), 'gasless')
    assert.equal(intentOf('total burned'), 'stats')
    assert.equal(intentOf('how much does a burn cost'), 'price')
    assert.equal(intentOf('who burned the most'), 'leaderboard')
  })

  test('entities decide between neighbours', () => {
    assert.equal(intentOf('burn 3 times'), 'multi_burn')
    assert.equal(intentOf('burn for a portrait from base'), 'cross_chain_looksmaxx')
    assert.equal(intentOf('swap 10 mc for mg'), 'swap_mc_mg')
    assert.equal(intentOf('swap 0.1 eth for mc'), 'swap')
    assert.equal(intentOf('proposal 4'), 'proposal_detail')
    assert.equal(intentOf('proposals'), 'list_proposals')
    assert.equal(intentOf('compare alice.mega bob.mega'), 'compare')
    assert.equal(intentOf('emission schedule'), 'emission_schedule')
    assert.equal(intentOf('schedule a burn'), 'schedule')
    assert.equal(intentOf('buy megachad with half an eth'), 'swap')
    assert.equal(intentOf('how many tokens do I get for 0.5 ETH?'), 'swap')
    assert.equal(intentOf('buy 225000 tokens'), 'swap')
  })

  test('confidence is between 0 and 1 and ranks are sorted', () => {
    const result = classify('price of megachad', extractEntities('price of megachad'))
    assert.ok(result.confidence > 0 && result.confidence <= 1)
    for (let i = 1; i < result.ranked.length; i++) assert.ok(result.ranked[i - 1]!.score >= result.ranked[i]!.score)
  })

  test('typos: one edit on words of 5+ letters, inflections and letter runs', () => {
    assert.equal(editDistance('leaderbord', 'leaderboard'), 1)
    assert.equal(editDistance('abcd', 'bacd'), 1, 'a transposition is one edit')
    assert.equal(canonicalWord('galery'), 'gallery')
    assert.equal(canonicalWord('stakng'), 'staking')
    assert.equal(canonicalWord('looksmaxxxxing'), 'looksmaxxing')
    assert.equal(canonicalWord('burning'), 'burn')
    assert.equal(canonicalWord('stak'), 'stake')
    assert.equal(canonicalWord('mine'), 'mine', 'common words are never corrected')
    for (const word of ['half', 'save', 'shake', 'sale', 'plant', 'prize', 'star']) assert.equal(canonicalWord(word), word, `${word} is an English word, not a typo of a keyword`)
    assert.deepEqual(canonicalForms('registr').sort(), ['register', 'registry'], 'a near tie keeps both readings')
  })
})
