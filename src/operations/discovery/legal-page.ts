import { createHash } from 'node:crypto'
import { textAnswer } from './text-answer.ts'

const STYLE = 'body{font:16px/1.55 system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;color:#1d1d1f}h1{font-size:1.6rem}h2{font-size:1.15rem;margin-top:1.8rem}code{font-size:.9em}nav{margin-top:2.5rem;font-size:.9em}'

/** The page's policy: its one inline style (by hash) and links; nothing runs, loads or frames it. */
export const LEGAL_PAGE_CSP = `default-src 'none'; style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'`

/** A section of a legal page: a heading and its paragraphs (or list items, when `list` is set). */
export type LegalSection = { heading: string; paragraphs: string[]; list?: boolean }

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

/**
 * A plain, self-contained HTML page (no script, no external asset), readable in a browser and
 * by a crawler. Paths written as `code` become code spans; nothing else is interpreted.
 */
export function renderLegalPage(page: { title: string; intro: string; sections: LegalSection[]; links: Array<[string, string]> }): string {
  const inline = (text: string) => escapeHtml(text).replace(/`([^`]+)`/g, '<code>$1</code>')
  const body = page.sections
    .map((s) => {
      const content = s.list
        ? `<ul>${s.paragraphs.map((p) => `<li>${inline(p)}</li>`).join('')}</ul>`
        : s.paragraphs.map((p) => `<p>${inline(p)}</p>`).join('\n')
      return `<h2>${inline(s.heading)}</h2>\n${content}`
    })
    .join('\n')
  const links = page.links.map(([label, href]) => `<a href="${escapeHtml(href)}">${escapeHtml(label)}</a>`).join(' · ')
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(page.title)}</title>
<style>${STYLE}</style>
</head>
<body>
<h1>${escapeHtml(page.title)}</h1>
<p>${inline(page.intro)}</p>
${body}
<nav>${links}</nav>
</body>
</html>
`
}

/** A legal page as an answer: HTML with the page's own content security policy. */
export function legalPageAnswer(page: Parameters<typeof renderLegalPage>[0]) {
  return textAnswer(renderLegalPage(page), 'text/html; charset=utf-8', { 'content-security-policy': LEGAL_PAGE_CSP })
}
