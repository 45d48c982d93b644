import { test, describe } from 'node:test'
import assert from 'node:assert/strict'
import { classify, canonicalWord, canonicalForms, editDistance } from './classify.ts'
import { extractEntities } from './extract.ts'

const intentOf = (message: string) => classify(message, extractEntities(message)).intent

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
