import { test } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync, statSync } from 'node:fs'
import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import { pages, render } from '../../scripts/docs-tables.ts'

/** Every Markdown page a reader of the repository meets: the README and docs/, recursively. */
async function markdownPages(): Promise<string[]> {
  const found = ['README.md']
  const walk = async (dir: string) => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name)
      if (entry.isDirectory()) await walk(file)
      else if (entry.name.endsWith('.md')) found.push(file)
    }
  }
  await walk('docs')
  return found
}

/** The text outside fenced code blocks and inline code, where a link is a link. */
const prose = (text: string) => text.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '')

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens; repeats numbered. */
function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>()
  const seen = new Map<string, number>()
  for (const line of text.replace(/^```[\s\S]*?^```/gm, '').split('\n')) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)
    if (!heading) continue
    const title = heading[1]!.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    const base = title.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-')
    const count = seen.get(base) ?? 0
    seen.set(base, count + 1)
    anchors.add(count === 0 ? base : `${base}-${count}`)
  }
  return anchors
}

test('every generated table of docs/ is up to date (run `npm run docs` after a change)', async () => {
  for (const page of Object.keys(pages)) {
    const text = await readFile(page, 'utf8')
    assert.equal(text, render(page, text), `${page} is stale: run npm run docs`)
  }
})

test('README opens with the two set-up commands', async () => {
  const head = (await readFile('README.md', 'utf8')).split('\n').slice(0, 10).join('\n')
  assert.match(head, /npm install && npm start/)
  assert.match(head, /npm install && npm test/)
})

test('README stays what a first hour needs: about 200 lines at most, the rest in docs/', async () => {
  const lines = (await readFile('README.md', 'utf8')).split('\n').length
  assert.ok(lines <= 210, `README.md has ${lines} lines: move what a newcomer does not need in the first hour into a page of docs/`)
})

test('every relative link of README.md and docs/ reaches an existing file, and its anchor a heading there', async () => {
  const broken: string[] = []
  const anchors = new Map<string, Set<string>>()
  const anchorsIn = async (file: string) => {
    if (!anchors.has(file)) anchors.set(file, anchorsOf(await readFile(file, 'utf8')))
    return anchors.get(file)!
  }
  for (const page of await markdownPages()) {
    const text = prose(await readFile(page, 'utf8'))
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target!)) continue // http:, https:, mailto:
      const [file = '', anchor] = target!.split('#')
      const resolved = file === '' ? page : path.normalize(path.join(path.dirname(page), decodeURIComponent(file)))
      if (!existsSync(resolved)) {
        broken.push(`${page}: ${target} (no file ${resolved})`)
        continue
      }
      if (anchor !== undefined && (!statSync(resolved).isFile() || !resolved.endsWith('.md') || !(await anchorsIn(resolved)).has(anchor))) {
        broken.push(`${page}: ${target} (no heading #${anchor} in ${resolved})`)
      }
    }
  }
  assert.deepEqual(broken, [])
})

test('docs/README.md lists every page of docs/', async () => {
  const index = await readFile('docs/README.md', 'utf8')
  const listed = new Set([...prose(index).matchAll(/\]\(([^)#\s]+)/g)].map((m) => path.normalize(path.join('docs', m[1]!))))
  const missing = (await markdownPages()).filter((page) => page.startsWith('docs/') && page !== path.normalize('docs/README.md') && !listed.has(page))
  assert.deepEqual(missing, [], 'pages of docs/ that docs/README.md does not list')
})
