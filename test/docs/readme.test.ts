import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFile } from 'node:fs/promises'
import { render } from '../../scripts/readme-tables.ts'

test('README tables are generated from the code (run `npm run docs` after a change)', async () => {
  const readme = await readFile('README.md', 'utf8')
  assert.equal(readme, render(readme))
})

test('README opens with the two set-up commands', async () => {
  const head = (await readFile('README.md', 'utf8')).split('\n').slice(0, 10).join('\n')
  assert.match(head, /npm install && npm start/)
  assert.match(head, /npm install && npm test/)
})
