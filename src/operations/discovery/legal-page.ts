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
<style>body{font:16px/1.55 system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;color:#1d1d1f}h1{font-size:1.6rem}h2{font-size:1.15rem;margin-top:1.8rem}code{font-size:.9em}nav{margin-top:2.5rem;font-size:.9em}</style>
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
