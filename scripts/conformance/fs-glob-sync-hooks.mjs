// Module hooks for the MCP conformance suite on Node 20: its bundle imports fs.globSync (Node 22).
// The import is taken out of the bundle's fs import and served by the small stand-in beside this
// file, which covers the '**/NAME' patterns the suite uses. Node 22 and later load it untouched.
const BUNDLE = /@modelcontextprotocol\/conformance\/dist\/index\.js$/
const SHIM = new URL('./glob-sync.mjs', import.meta.url).href

export async function load(url, context, nextLoad) {
  const result = await nextLoad(url, context)
  if (!BUNDLE.test(url)) return result
  const source = String(result.source)
  if (!source.includes('globSync as o,')) return result
  // After the bundle's first line (a #! line must stay first).
  const patched = source.replace('globSync as o,', '').replace(/^(#![^\n]*\n)?/, (shebang) => `${shebang}import{globSync as o}from${JSON.stringify(SHIM)};`)
  return { ...result, source: patched }
}
