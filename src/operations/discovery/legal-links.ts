/** Where the terms and privacy pages of this service are (both served by it: get-terms.ts, get-privacy.ts). */
export const TERMS_PATH = '/terms'
export const PRIVACY_PATH = '/privacy'

export function legalLinks(base: string) {
  return { terms: `${base}${TERMS_PATH}`, privacy: `${base}${PRIVACY_PATH}` }
}

/**
 * Every discovery document and entry point of the service by its full URL: the one list the
 * text documents (agents.txt, llms.txt) link from, so a path changes in one place.
 */
export function discoveryLinks(base: string, mcpPath: string) {
  return {
    agentIndex: `${base}/api/agent`,
    openapi: `${base}/.well-known/openapi.json`,
    mcp: `${base}${mcpPath}`,
    mcpManifest: `${base}/.well-known/mcp.json`,
    agentCard: `${base}/.well-known/agent.json`,
    registration: `${base}/.well-known/agent-registration.json`,
    contracts: `${base}/.well-known/service-protocol.json`,
    llms: `${base}/llms.txt`,
    llmsFull: `${base}/llms-full.txt`,
    paymentRequirements: `${base}/api/x402/looksmaxx`,
    ...legalLinks(base),
  }
}
