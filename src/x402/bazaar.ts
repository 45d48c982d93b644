/**
 * x402's `bazaar` extension (coinbase/x402 specs/extensions/bazaar.md): a resource server
 * declares, in the `extensions` of its 402, how to call the paid route or tool (input schema and
 * example, output example) so that facilitators and agents can catalogue it. Built with
 * @x402/extensions/bazaar (loaded on first use); the declaration is validated by the same
 * package's facilitator-side check in the tests.
 */
export const BAZAAR = 'bazaar'

let extension: Promise<typeof import('@x402/extensions/bazaar')> | undefined
function loadBazaar() {
  return (extension ??= import('@x402/extensions/bazaar'))
}

export type PaidRoute =
  | { transport: 'http'; method: 'POST'; path: string; inputSchema: Record<string, unknown>; example: Record<string, unknown>; outputExample: Record<string, unknown> }
  | { transport: 'mcp'; tool: string; description: string; inputSchema: Record<string, unknown>; example: Record<string, unknown>; outputExample: Record<string, unknown> }

/**
 * The `extensions.bazaar` entry of a 402. Over HTTP the method is set as the package's
 * resource-server hook sets it from the request; over MCP the entry names the tool, and the
 * 402's `resource.url` is the MCP endpoint (the pair names the tool, as the spec says).
 */
export async function declareBazaar(route: PaidRoute): Promise<Record<string, unknown>> {
  const { declareDiscoveryExtension, bazaarResourceServerExtension } = await loadBazaar()
  if (route.transport === 'mcp') {
    return declareDiscoveryExtension({
      toolName: route.tool,
      description: route.description,
      transport: 'streamable-http',
      inputSchema: route.inputSchema,
      example: route.example,
      output: { example: route.outputExample },
    })
  }
  const declared = declareDiscoveryExtension({ bodyType: 'json', input: route.example, inputSchema: route.inputSchema, output: { example: route.outputExample } })[BAZAAR]
  const enriched = bazaarResourceServerExtension.enrichDeclaration!(declared, {
    method: route.method,
    routePattern: route.path,
    adapter: { getPath: () => route.path },
  } as never)
  return { [BAZAAR]: enriched }
}
